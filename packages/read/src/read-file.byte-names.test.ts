import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

// docs/paths.md#names-that-are-not-utf-8: `inv\xff.txt`, `inv\xfe.txt` and a real `inv\uFFFD.txt` were all listed as
// `inv\uFFFD.txt`, and that name read the third file.
describe('names that are not UTF-8', () => {
  it.runIf(backendHas('byte-names'))(
    'are listed each in its own quoted form, which reads that file and no other',
    async ({ workspace, tool }) => {
      await workspace.writeAll({
        'odd/inv\udcff.txt': 'ff\n',
        'odd/inv\udcfe.txt': 'fe\n',
        'odd/inv\ufffd.txt': 'replacement\n',
      });
      const result = await tool.call({ path: 'odd' });
      expect(result.message).toBe(
        '`odd` is not a file. It is a directory holding:\n"inv\\udcfe.txt"\n"inv\\udcff.txt"\ninv\ufffd.txt\nUse the Glob tool to find files in it.',
      );
      const listed = result.message.split('\n').slice(1, -1);
      const read = async (name: string) => (await tool.call({ path: `odd/${name}` })).output;
      expect(await Promise.all(listed.map(read))).toEqual([
        '     1\tfe\n',
        '     1\tff\n',
        '     1\treplacement\n',
      ]);
      expect((await tool.call({ path: '"odd/inv\\udcff.txt"' })).output).toBe('     1\tff\n');
    },
  );

  // Node wrote such a name into its own error as U+FFFD: `loop\xff` and `loop\xfe` failed alike on the local disk,
  // `open '.../loop\uFFFD'`, and that name led to neither. Named as shown, as the memory backend already did.
  it.runIf(backendHas('byte-names'))(
    'are named by their escapes in the error of a failed read, each its own, as given back',
    async ({ workspace, tool }) => {
      await workspace.symlink('loop\udcff', 'loop\udcff');
      await workspace.symlink('loop\udcfe', 'loop\udcfe');
      for (const name of ['loop\\udcff', 'loop\\udcfe']) {
        const error = `"ELOOP: too many symbolic links encountered, open '${workspace.workDir}/${name}'"`;
        const result = await tool.call({ path: `"${name}"` });
        expect(result).toMatchObject({
          message: `Failed to read "${name}". Error: ${error}`,
          brief: 'Failed to read file',
        });
        // The path the error names, between the quotes of the shown form, leads back to the same file.
        const named = /open '(.*)'"$/.exec(result.message)![1]!;
        expect((await tool.call({ path: `"${named}"` })).message).toBe(
          `Failed to read "${named}". Error: ${error}`,
        );
      }
    },
  );

  it('are refused where the backend cannot carry them, never read as the U+FFFD file', async ({
    workspace,
    tool,
  }) => {
    await workspace.write('inv\ufffd.txt', 'replacement\n');
    const result = await tool.call({ path: '"inv\\udcff.txt"' });
    if (backendHas('byte-names')) {
      expect(result.message).toBe('`"inv\\udcff.txt"` does not exist. Did you mean: inv\ufffd.txt?');
      return;
    }
    expect(result).toMatchObject({
      isError: true,
      message: '`"inv\\udcff.txt"` is not a valid path.',
      brief: 'Invalid path',
    });
  });

  it('holding a lone surrogate that is no byte, or one that does not read back as shown, name no file', async ({
    tool,
  }) => {
    for (const [path, shown] of [
      ['"a\\ud800.txt"', '"a\\ud800.txt"'],
      ['"\\udcc3\\udca9.txt"', '"\\udcc3\\udca9.txt"'],
    ]) {
      expect(await tool.call({ path: path! })).toMatchObject({
        message: `\`${shown}\` is not a valid path.`,
        brief: 'Invalid path',
      });
    }
  });
});
