import { backendHas, rewriteKeepingMtime, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

// docs/read-state.md: a change that keeps the size and puts the modification time back is still a change.

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const MODIFIED = {
  isError: true,
  message:
    '`a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
  brief: 'File modified',
};

describe('StrReplaceFile: same-size changes with the modification time restored', () => {
  it.runIf(backendHas('exact-times'))(
    'refuses to edit a small file changed after the read',
    async ({ workspace, runtime, tool }) => {
      const file = await workspace.write('a.txt', 'name = "alpha"\n', { readBy: runtime });
      await rewriteKeepingMtime(file, 'name = "omega"\n');
      // The change is seen; the kept text of the read (docs/read-state.md#changed-since-the-read) shows it overlaps.
      expect(await tool.call({ path: 'a.txt', edit: { old: 'name', new: 'title' } })).toMatchObject({
        ...MODIFIED,
        message: [
          '`a.txt` has been modified since it was last read, and the change touches the lines the edit would change (line 1). No changes were made. Those lines now read:',
          '```',
          '     1\tname = "omega"',
          '```',
          'What changed since the read:',
          '```diff',
          '@@ -1,1 +1,1 @@',
          '-name = "alpha"',
          '+name = "omega"',
          '```',
          'Edit against the current lines.',
        ].join('\n'),
      });
      expect(await workspace.read(file)).toBe('name = "omega"\n');
    },
  );

  // The read state of a file above the hash limit over SSH is WriteFile's suite's to check: once is enough.
  it.runIf(backendHas('huge-files'))(
    'refuses to edit a 70 MiB file changed after the read',
    async ({ workspace, runtime, tool }) => {
      const content = Buffer.alloc(70 << 20, 'abcdefghijklmnopqrstuvwxyz\n');
      content.write('marker', 0);
      const file = await workspace.write('a.txt', content, { readBy: runtime });
      content.write('MARKER', 0);
      await rewriteKeepingMtime(file, content);
      expect(await tool.call({ path: 'a.txt', edit: { old: 'MARKER', new: 'edited' } })).toMatchObject(
        MODIFIED,
      );
      const handle = await workspace.fs.open(file, 'read');
      const head = Buffer.alloc(6);
      await handle.read(head, 0, 6, 0);
      await handle.close();
      expect(head.toString()).toBe('MARKER');
    },
  );
});
