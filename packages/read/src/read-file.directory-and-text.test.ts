import { lastSeenText, READ_TEXT_MAX_BYTES } from '@kimi-tools/core/toolkit';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

const it = test.extend('tool', ({ runtime }) => new ReadFile(runtime));

describe('a directory', () => {
  it('keeps its error and lists what it holds, directories with a slash, ignored entries left out', async ({
    workspace,
    tool,
  }) => {
    await workspace.writeAll({
      'src/.gitignore': 'dist/\n*.log\n',
      'src/main.py': 'print(1)\n',
      'src/b.go': 'package b\n',
      'src/debug.log': 'x\n',
      'src/dist/out.js': 'x\n',
      'src/lib/util.py': 'x\n',
      'src/node_modules/m/index.js': 'x\n',
      'src/.git/HEAD': 'x\n',
    });
    const result = await tool.call({ path: 'src' });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('Invalid path');
    expect(result.message).toBe(
      '`src` is not a file. It is a directory holding:\n.gitignore\nb.go\nlib/\nmain.py\nUse the Glob tool to find files in it.',
    );
  });

  it('answers a directory given with a trailing slash as without it, its listing included', async ({
    workspace,
    tool,
  }) => {
    await workspace.writeAll({ 'internal/server/main.go': 'package main\n', 'internal/server/api/a.go': '' });
    const result = await tool.call({ path: 'internal/server/' });
    expect(result).toMatchObject({
      isError: true,
      brief: 'Invalid path',
      message:
        '`internal/server/` is not a file. It is a directory holding:\napi/\nmain.go\nUse the Glob tool to find files in it.',
    });
    const without = await tool.call({ path: 'internal/server' });
    expect(result.message).toBe(without.message.replace('`internal/server`', '`internal/server/`'));
    // A name that is no directory keeps the separator's own answer: nothing is there to list.
    expect((await tool.call({ path: 'internal/server/main.go/' })).message).toBe(
      '`internal/server/main.go/` ends with a path separator, so it names a directory, not a file.',
    );
  });

  // A path past 4,096 characters was shown cut (`././…[...107 characters cut...]…/sub`), though it named the
  // directory: given back, the cut form named nothing. Only a path no system takes is cut, and it is refused.
  it('is named whole in its message however long the path given, and that name leads back to it', async ({
    workspace,
    tool,
  }) => {
    await workspace.write('sub/a.txt', 'x\n');
    const long = `${'./'.repeat(2_100)}sub`;
    const expected = `\`${long}\` is not a file. It is a directory holding:\na.txt\nUse the Glob tool to find files in it.`;
    const result = await tool.call({ path: long });
    expect(result.message).toBe(expected);
    const shown = /^`(.*)` is not a file/s.exec(result.message)![1]!;
    expect((await tool.call({ path: shown })).message).toBe(expected);
    const tooLong = `${'./'.repeat(16_400)}sub`;
    expect(await tool.call({ path: tooLong })).toMatchObject({
      message: `\`${tooLong.slice(0, 16_383)}[...37 characters cut...]${tooLong.slice(-16_383)}\` is not a valid path.`,
      brief: 'Invalid path',
    });
  });

  it('applies the ignore rules of the directories above it', async ({ workspace, tool }) => {
    await workspace.writeAll({
      '.gitignore': 'secret-notes/\n',
      'docs/secret-notes/a.md': 'x\n',
      'docs/a.md': 'x\n',
    });
    const result = await tool.call({ path: 'docs' });
    expect(result.message).toBe(
      '`docs` is not a file. It is a directory holding:\na.md\nUse the Glob tool to find files in it.',
    );
  });

  it('names at most 50 entries and counts the rest', async ({ workspace, tool }) => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 57; index++) files[`many/f${String(index).padStart(2, '0')}.txt`] = '';
    await workspace.writeAll(files);
    const result = await tool.call({ path: 'many' });
    const lines = result.message.split('\n');
    expect(lines[0]).toBe('`many` is not a file. It is a directory holding:');
    expect(lines.slice(1, 51)).toEqual(
      Array.from({ length: 50 }, (_, index) => `f${String(index).padStart(2, '0')}.txt`),
    );
    expect(lines.slice(51)).toEqual(['... and 7 more', 'Use the Glob tool to find files in it.']);
  });

  it('leaves entries out that the deny rules refuse', async ({ workspace }) => {
    await workspace.writeAll({ 'd/keep.txt': '', 'd/private.key.txt': '' });
    const runtime = workspace.runtime({ deny: ['**/private.*'] });
    const result = await new ReadFile(runtime).call({ path: 'd' });
    expect(result.message).toBe(
      '`d` is not a file. It is a directory holding:\nkeep.txt\nUse the Glob tool to find files in it.',
    );
  });
  // docs/paths.md#how-paths-are-shown: a name is listed as it is shown everywhere, and the listed form joined to the
  // directory reads that file and no other (issue 29: the tab file was listed as the backslash file's name).
  it.runIf(process.platform !== 'win32')(
    'lists an odd name in the quoted form, which leads back to that file',
    async ({ workspace, tool }) => {
      await workspace.writeAll({
        'odd/a\tb.py': 'tab\n',
        'odd/a\\tb.py': 'backslash\n',
        'odd/"q.py': 'quote\n',
        'odd/n\nl/x.py': 'newline\n',
      });
      const result = await tool.call({ path: 'odd' });
      expect(result.message).toBe(
        '`odd` is not a file. It is a directory holding:\n"\\"q.py"\n"a\\tb.py"\n"n\\nl"/\na\\tb.py\nUse the Glob tool to find files in it.',
      );
      const listed = result.message.split('\n').slice(1, -1);
      const read = async (name: string) => (await tool.call({ path: `odd/${name}` })).output;
      expect(await Promise.all(listed.filter((name) => !name.endsWith('/')).map(read))).toEqual([
        '     1\tquote\n',
        '     1\ttab\n',
        '     1\tbackslash\n',
      ]);
      expect((await tool.call({ path: 'odd/"n\\nl"/x.py' })).output).toBe('     1\tnewline\n');
    },
  );
});

describe('the text kept for the write tools', () => {
  it('keeps the text of a file read, for the edits that survive unrelated changes, and not of a big one', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const small = await workspace.write('small.py', 'a = 1\r\nb = 2\r\n');
    await tool.call({ path: 'small.py', line_offset: 2 });
    expect(lastSeenText(runtime, small)).toBe('a = 1\nb = 2\n');
    const big = await workspace.write('big.txt', 'x\n'.repeat(READ_TEXT_MAX_BYTES));
    await tool.call({ path: 'big.txt', n_lines: 1 });
    expect(lastSeenText(runtime, big)).toBeUndefined();
  });
});
