import { setTimeout as sleep } from 'node:timers/promises';
import { backendHas, mapSharedForWriting, markRead, rewriteKeepingMtime, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

// docs/read-state.md: a change that keeps the size and puts the modification time back (an editor restoring times,
// or two writers within one timestamp tick) is still a change: content on small files, the inode's change time and
// identity on files too large to hash.

const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

const MODIFIED = {
  isError: true,
  message:
    '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
  brief: 'File modified',
};

/** 70 MiB of text lines: above the 64 MiB content-hash limit. */
function bigText(): Buffer {
  return Buffer.alloc(70 << 20, 'abcdefghijklmnopqrstuvwxyz\n');
}

describe.runIf(backendHas('exact-times'))(
  'WriteFile: same-size changes with the modification time restored',
  () => {
    it.runIf(backendHas('exact-times'))(
      'refuses to overwrite a small file changed after the read',
      async ({ workspace, runtime, tool }) => {
        const file = await workspace.write('a.txt', 'counter=1\n', { readBy: runtime });
        await rewriteKeepingMtime(file, 'counter=2\n');
        expect(await tool.call({ path: 'a.txt', content: 'counter=9\n' })).toMatchObject(MODIFIED);
        expect(await workspace.read(file)).toBe('counter=2\n');
      },
    );

    it.runIf(backendHas('exact-times'))(
      'refuses to overwrite a small file changed after a read made well after its last change',
      async ({ workspace, runtime, tool }) => {
        const file = await workspace.write('a.txt', 'counter=1\n');
        // More than a tick of the file system's clock: the change below is the only one since the read.
        await sleep(40);
        await markRead(runtime, file);
        await rewriteKeepingMtime(file, 'counter=2\n');
        expect(await tool.call({ path: 'a.txt', content: 'counter=9\n' })).toMatchObject(MODIFIED);
        expect(await workspace.read(file)).toBe('counter=2\n');
      },
    );

    it.runIf(backendHas('exact-times'))(
      'refuses to overwrite a 70 MiB file changed after the read',
      async ({ workspace, runtime, tool }) => {
        const content = bigText();
        const file = await workspace.write('a.txt', content, { readBy: runtime });
        content[0] = 'X'.charCodeAt(0);
        await rewriteKeepingMtime(file, content);
        expect(await tool.call({ path: 'a.txt', content: 'small\n' })).toMatchObject(MODIFIED);
        const stats = await workspace.fs.stat(file);
        const handle = await workspace.fs.open(file, 'read');
        const head = Buffer.alloc(3);
        await handle.read(head, 0, 3, 0);
        await handle.close();
        expect([stats.size, head.toString()]).toEqual([content.length, 'Xbc']);
      },
    );

    it.runIf(backendHas('huge-files'))(
      'overwrites a 70 MiB file left as it was read',
      async ({ workspace, runtime, tool }) => {
        const file = await workspace.write('a.txt', bigText());
        await markRead(runtime, file);
        expect(await tool.call({ path: 'a.txt', content: 'done\n' })).toMatchObject({
          isError: false,
          message: 'File successfully overwritten. Current size: 5 bytes.',
        });
        expect(await workspace.read(file)).toBe('done\n');
      },
    );
  },
);

// A program writing through a shared memory mapping changes the bytes and, past the first write to a page, neither
// time (on a tmpfs, not even then): the stats of a file unchanged since a read cannot vouch for its bytes.
describe.runIf(backendHas('disk'))('WriteFile: a change through a shared memory mapping', () => {
  it('refuses to overwrite a file changed through a mapping after a read made well after its last change', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('a.txt', 'counter=1\n');
    const mapping = await mapSharedForWriting(file);
    try {
      await mapping.write(8, '1');
      await sleep(40);
      await markRead(runtime, file);
      await mapping.write(8, '2');
      expect(await tool.call({ path: 'a.txt', content: 'counter=9\n' })).toMatchObject(MODIFIED);
      expect(await workspace.read(file)).toBe('counter=2\n');
    } finally {
      await mapping.close();
    }
  });
});
