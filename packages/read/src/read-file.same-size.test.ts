import { hashBytes } from '@kimi-tools/core/toolkit';
import { backendHas, mapSharedForWriting, rewriteKeepingMtime, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

// docs/read-file.md#big-files: a line index is kept only for a version its stats tell apart. A same-size change whose
// stats did not move (a rewrite that restores the modification time, two writes within one tick of the clock or,
// over SFTP, within one second; a write through a shared memory mapping) is read afresh, and the read records what it
// read: otherwise the write tools would refuse the model's next write as if the file had changed since.

const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

const line = (number: number, text: string) => `${String(number).padStart(6)}\t${text}\n`;

describe('ReadFile: a same-size change whose stats did not move, read again', () => {
  it.runIf(backendHas('exact-times'))(
    'shows the new lines of a rewrite with the mtime restored, and records the new content',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('a.txt', 'aaaaaaa\nbbbbbbb\n');
      expect((await tool.call({ path: 'a.txt' })).message).toBe(
        '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
      );
      const changed = 'a\nb\nc\nd\ne\nf\ng\nh\n';
      await rewriteKeepingMtime(file, changed);
      const tail = await tool.call({ path: 'a.txt', line_offset: -1 });
      expect(tail.output).toBe(line(8, 'h'));
      expect(runtime.fileState.get(file)?.hash).toBe(hashBytes(Buffer.from(changed)));
      expect(await runtime.fileState.check(file)).toBe('ok');
    },
  );

  it.runIf(backendHas('disk'))(
    'shows the new bytes of a change through a shared memory mapping, and records the new content',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('a.txt', 'counter=1\n');
      const mapping = await mapSharedForWriting(file);
      try {
        // Past the first write to a page (on a tmpfs, any write), a write through the mapping moves neither time.
        await mapping.write(8, '1');
        expect((await tool.call({ path: 'a.txt' })).output).toBe(line(1, 'counter=1'));
        await mapping.write(8, '2');
        expect((await tool.call({ path: 'a.txt' })).output).toBe(line(1, 'counter=2'));
        expect(runtime.fileState.get(file)?.hash).toBe(hashBytes(Buffer.from('counter=2\n')));
        expect(await runtime.fileState.check(file)).toBe('ok');
      } finally {
        await mapping.close();
      }
    },
  );
});
