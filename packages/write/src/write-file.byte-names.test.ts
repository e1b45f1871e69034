import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

// docs/paths.md#names-that-are-not-utf-8: a name given in its shown form, `"new\udcff.txt"`, is the file of byte 0xFF,
// never `new\uFFFD.txt`.
describe('a name that is not UTF-8', () => {
  it.runIf(backendHas('byte-names'))(
    'is created as its own bytes, and shown as given back',
    async ({ workspace, tool, approval }) => {
      const result = await tool.call({ path: '"dir\\udcfe/new\\udcff.txt"', content: 'ff\n' });
      expect(result).toMatchObject({ isError: false });
      expect(result.message).toBe(
        'File successfully overwritten. Current size: 3 bytes. Created directories: "dir\\udcfe".',
      );
      expect(approval.requests.map((request) => request.description)).toEqual([
        `Write file \`"${workspace.workDir}/dir\\udcfe/new\\udcff.txt"\``,
      ]);
      expect(await workspace.list('dir\udcfe')).toEqual(['new\udcff.txt']);
      expect(await workspace.list()).toEqual(['dir\udcfe']);
      expect(await workspace.read('dir\udcfe/new\udcff.txt')).toBe('ff\n');
    },
  );

  it.runIf(!backendHas('byte-names'))(
    'is refused where the backend cannot carry it, and nothing is written',
    async ({ workspace, tool }) => {
      const result = await tool.call({ path: '"new\\udcff.txt"', content: 'ff\n' });
      expect(result).toMatchObject({
        isError: true,
        message: '`"new\\udcff.txt"` is not a valid path.',
        brief: 'Invalid path',
      });
      expect(await workspace.list()).toEqual([]);
    },
  );
});
