import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './index.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

// docs/paths.md#names-that-are-not-utf-8: `"inv\udcff.txt"` is the file of byte 0xFF, apart from `inv\uFFFD.txt`; the
// read state is kept by that name, so a read of the U+FFFD twin is no read of it (docs/read-state.md).
describe('StrReplaceFile and a name that is not UTF-8', () => {
  it.runIf(backendHas('byte-names'))(
    'edits the file its quoted form names once that file was read, and never its U+FFFD twin',
    async ({ workspace, runtime, tool, approval }) => {
      await workspace.write('dir\udcfe/inv\udcff.txt', 'ff\n');
      await workspace.write('dir\udcfe/inv\ufffd.txt', 'ff\n', { readBy: runtime });
      const edit = { path: '"dir\\udcfe/inv\\udcff.txt"', edit: { old: 'ff', new: 'FF' } };
      expect(await tool.call(edit)).toMatchObject({
        isError: true,
        message: '`"dir\\udcfe/inv\\udcff.txt"` has not been read yet. Read it first before writing to it.',
      });
      await workspace.write('dir\udcfe/inv\udcff.txt', 'ff\n', { readBy: runtime });
      expect(await tool.call(edit)).toMatchObject({ isError: false });
      expect(approval.requests.map((request) => request.description)).toEqual([
        `Edit file \`"${workspace.workDir}/dir\\udcfe/inv\\udcff.txt"\``,
      ]);
      expect(await workspace.read('dir\udcfe/inv\udcff.txt')).toBe('FF\n');
      expect(await workspace.read('dir\udcfe/inv\ufffd.txt')).toBe('ff\n');
      expect(await workspace.list('dir\udcfe')).toEqual(['inv\udcff.txt', 'inv\ufffd.txt']);
    },
  );
});
