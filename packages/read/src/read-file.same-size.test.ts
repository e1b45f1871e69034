import { hashBytes } from '@kimi-tools/core/toolkit';
import { backendHas, failsWhere, rewriteKeepingMtime, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

// docs/read-file.md#big-files: the line index of a file is used only for the very same file version; a rewrite that
// keeps the size and restores the modification time is another version.

const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

describe('ReadFile: the line index after a same-size rewrite with the mtime restored', () => {
  failsWhere(it.runIf(backendHas('exact-times')), 'sftp-line-index')(
    'shows the new lines and records the new content',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('a.txt', 'aaaaaaa\nbbbbbbb\n');
      expect((await tool.call({ path: 'a.txt' })).message).toBe(
        '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
      );
      const changed = 'a\nb\nc\nd\ne\nf\ng\nh\n';
      await rewriteKeepingMtime(file, changed);
      const tail = await tool.call({ path: 'a.txt', line_offset: -1 });
      expect(tail.output).toBe(`${String(8).padStart(6)}\th\n`);
      expect(runtime.fileState.get(file)?.hash).toBe(hashBytes(Buffer.from(changed)));
      expect(await runtime.fileState.check(file)).toBe('ok');
    },
  );
});
