import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { memoryFileSystem } from '@kimi-tools/core/fs';
import { backendHas, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Glob } from './glob/glob.js';
import { Grep } from './grep/grep.js';

// docs/paths.md#names-that-are-not-utf-8: `inv\xff.txt`, `inv\xfe.txt` and a real `inv\uFFFD.txt` were all listed
// as `inv\uFFFD.txt` (Node's readdir and ripgrep's output decode such bytes as U+FFFD), and given back that name led to
// the third file. Each is shown as its own name now, and that name leads back to it.
const files = {
  'inv\udcff.txt': 'zebra ff\n',
  'inv\udcfe.txt': 'zebra fe\n',
  'inv\ufffd.txt': 'zebra replacement\n',
};

describe.runIf(backendHas('byte-names'))('names that are not UTF-8', () => {
  it('Glob shows each such name quoted with its bytes as \\u escapes, and takes it back', async ({
    workspace,
  }) => {
    await workspace.writeAll({ ...files, 'd\udc80/inner.txt': '' });
    const glob = new Glob(workspace.runtime());
    expect((await glob.call({ pattern: '**/*.txt' })).output).toBe(
      ['"d\\udc80/inner.txt"', '"inv\\udcfe.txt"', '"inv\\udcff.txt"', 'inv\ufffd.txt'].join('\n'),
    );
    expect((await glob.call({ pattern: '*', directory: '"d\\udc80"' })).output).toBe('inner.txt');
  });

  it('Grep shows each such name quoted in every mode, each with its own lines', async ({ workspace }) => {
    await workspace.writeAll(files);
    const grep = new Grep(workspace.runtime());
    expect((await grep.call({ pattern: 'zebra' })).extras).toMatchObject({ search: 'ripgrep' });
    const listed = await grep.call({ pattern: 'zebra' });
    expect(String(listed.output).split('\n').sort()).toEqual([
      '"inv\\udcfe.txt"',
      '"inv\\udcff.txt"',
      'inv\ufffd.txt',
    ]);
    expect((await grep.call({ pattern: 'zebra', output_mode: 'content' })).output).toBe(
      [
        '"inv\\udcfe.txt":1:zebra fe',
        '"inv\\udcff.txt":1:zebra ff',
        'inv\ufffd.txt:1:zebra replacement',
      ].join('\n'),
    );
    expect((await grep.call({ pattern: 'zebra', output_mode: 'count_matches' })).output).toBe(
      ['"inv\\udcfe.txt":1', '"inv\\udcff.txt":1', 'inv\ufffd.txt:1'].join('\n'),
    );
  });

  // A file ripgrep prints a line with a lone \r of is searched again by the portable search: its output must be read
  // back with the name's bytes, or its lines would land under another name (docs/grep.md, Lines).
  it('Grep numbers the lines of such a file where ReadFile ends them, at a lone \\r too', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'mac\udcff.txt': 'alpha\rbeta\rgamma needle\rdelta\r' });
    const result = await new Grep(workspace.runtime()).call({
      pattern: 'needle',
      output_mode: 'content',
      '-C': 1,
    });
    expect(result).toMatchObject({
      output: ['"mac\\udcff.txt"-2-beta', '"mac\\udcff.txt":3:gamma needle', '"mac\\udcff.txt"-4-delta'].join(
        '\n',
      ),
      extras: { search: 'ripgrep' },
    });
  });

  it('Grep searches the file or directory a shown name leads back to', async ({ workspace }) => {
    await workspace.writeAll({
      ...files,
      'd\udc80/inner.txt': 'zebra inner\n',
      'd\ufffd/other.txt': 'zebra other\n',
    });
    const grep = new Grep(workspace.runtime());
    // ripgrep cannot be given such a name (Node passes arguments as UTF-8): the portable search takes it.
    const file = await grep.call({ pattern: 'zebra', path: '"inv\\udcff.txt"', output_mode: 'content' });
    expect(file).toMatchObject({ output: '"inv\\udcff.txt":1:zebra ff', extras: { search: 'portable' } });
    const directory = await grep.call({ pattern: 'zebra', path: '"d\\udc80"', output_mode: 'content' });
    expect(directory.output).toBe('inner.txt:1:zebra inner');
    const tree = await grep.call({ pattern: 'zebra (inner|other)', output_mode: 'content' });
    expect(tree).toMatchObject({
      output: '"d\\udc80/inner.txt":1:zebra inner\nd\ufffd/other.txt:1:zebra other',
      extras: { search: 'ripgrep' },
    });
  });

  // A glob naming such a file as Glob shows it (`inv\udcff.txt`) failed the call: `Failed to grep. Error: EINVAL: a
  // name that is not UTF-8 cannot be passed to a program`, as ripgrep's `--glob` cannot take it either.
  it('Grep takes a glob holding such a name, and searches the files it matches', async ({ workspace }) => {
    await workspace.writeAll(files);
    const grep = new Grep(workspace.runtime());
    const one = await grep.call({ pattern: 'zebra', glob: 'inv\udcff.txt', output_mode: 'content' });
    expect(one).toMatchObject({ output: '"inv\\udcff.txt":1:zebra ff', extras: { search: 'portable' } });
    const some = await grep.call({
      pattern: 'zebra',
      glob: 'inv[\udcfe\udcff].txt',
      output_mode: 'count_matches',
    });
    expect(some.output).toBe('"inv\\udcfe.txt":1\n"inv\\udcff.txt":1');
  });

  it('Grep shows the bytes of a line that are not UTF-8 as U+FFFD, as before', async ({ workspace }) => {
    await workspace.write('inv\udcff.txt', Buffer.from('zebra \xff\n', 'latin1'));
    const content = await new Grep(workspace.runtime()).call({ pattern: 'zebra', output_mode: 'content' });
    expect(content.output).toBe('"inv\\udcff.txt":1:zebra \ufffd');
  });
});

describe.runIf(backendHas('byte-names'))('names that are not UTF-8, in every search', () => {
  const calls = [
    { pattern: 'zebra' },
    { pattern: 'zebra', output_mode: 'content' },
    { pattern: 'zebra', output_mode: 'count_matches' },
    { pattern: 'zebra', output_mode: 'content', path: '"d\\udc80"' },
  ] as const;
  const tree = {
    ...files,
    'd\udc80/inner.txt': 'zebra inner\n',
    'line.txt': Buffer.from('zebra \xff\n', 'latin1'),
  };

  it('the portable search, on the local disk and in memory, answers as ripgrep does', async ({
    workspace,
  }) => {
    await workspace.writeAll(tree);
    const fs = memoryFileSystem();
    await fs.mkdir('/work');
    await fs.mkdir('/work/d\udc80');
    for (const [name, content] of Object.entries(tree)) {
      const file = await fs.create(`/work/${name}`);
      const bytes = Buffer.from(content);
      await file.write(bytes, 0, bytes.length, 0);
      await file.close();
    }
    const memory = createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
    for (const call of calls) {
      const expected = await new Grep(workspace.runtime()).call(call);
      const portable = { ...expected, extras: { ...expected.extras, search: 'portable' } };
      expect(await new Grep(workspace.runtime(), { rgPath: '/nonexistent/rg' }).call(call)).toEqual(portable);
      // Files mode lists the newest first: the files in memory were not written at the same times.
      const sorted = (result: { output: unknown }) => ({
        ...result,
        output: String(result.output).split('\n').sort(),
      });
      expect(sorted(await new Grep(memory).call(call)), JSON.stringify(call)).toEqual(sorted(portable));
    }
    const glob = await new Glob(memory).call({ pattern: '**/*.txt' });
    expect(glob.output).toBe((await new Glob(workspace.runtime()).call({ pattern: '**/*.txt' })).output);
  });
});

// A pattern holding a lone surrogate (`\udcff`, as a shown name spells a byte) failed the call with `Failed to grep.
// Error: EINVAL: a name that is not UTF-8 cannot be passed to a program` on the local disk; over SSH it would reach
// ripgrep as U+FFFD and match that character. No text read holds a lone surrogate (bytes that are not UTF-8 read as
// U+FFFD), so the search finds nothing, on every backend.
describe('a pattern holding a lone surrogate', () => {
  it('matches no text, not even U+FFFD, and fails no call', async ({ workspace }) => {
    await workspace.writeAll({ 'replacement.txt': 'zebra \ufffd\n' });
    const grep = new Grep(workspace.runtime());
    for (const pattern of ['\udcff', 'zebra \udcff', '[\udcfe\udcff]']) {
      const result = await grep.call({ pattern, output_mode: 'content' });
      expect(result, JSON.stringify(pattern)).toMatchObject({ isError: false, message: 'No matches found.' });
    }
    expect((await grep.call({ pattern: 'zebra \ufffd' })).output).toBe('replacement.txt');
  });
});
