import { chmod, readFile, rm } from 'node:fs/promises';
import { it, type TempWorkspace, type WorkspaceRuntimeOptions } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { Grep, type GrepOptions } from './grep.js';

let tree: TempWorkspace;

beforeAll(async () => {
  const files = {
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'zebra ignored\n',
    'a.ts': 'const zebra = 1;\nconsole.log(zebra);\n',
    'ctx.txt': ['one', 'zebra two', 'three', 'four', 'five', 'six', 'seven', 'zebra eight', 'nine', ''].join(
      '\n',
    ),
    'crlf.txt': 'alpha\r\nbeta zebra\r\ngamma\r\n',
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, ...Buffer.from('zebra\n')]),
    '.env': 'ZEBRA_KEY=zebra\n',
    '.env.example': 'zebra\n',
    'sub/.env.local': 'zebra\nzebra\n',
    'sub/b.ts': '// zebra\n',
  };
  const mtimes = {
    'a.ts': 1000,
    'latin1.txt': 2000,
    'crlf.txt': 3000,
    'sub/b.ts': 4000,
    'ctx.txt': 5000,
    '.env.example': 6000,
  };
  tree = await createSearchTree(files, { git: true, outside: { 'far.txt': 'zebra\n' }, mtimes });
});

afterAll(async () => {
  await tree.cleanup();
});

function grep(options: WorkspaceRuntimeOptions = {}, toolOptions: GrepOptions = {}) {
  return new Grep(tree.runtime(options), toolOptions);
}

describe('Grep output modes', () => {
  it('lists matching files newest first, without sensitive files', async () => {
    const result = await grep().call({ pattern: 'zebra' });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(
      ['.env.example', 'ctx.txt', 'sub/b.ts', 'crlf.txt', 'latin1.txt', 'a.ts'].join('\n'),
    );
    // Sensitive files are left out silently: a warning naming the ones that matched would be an oracle.
    expect(result.message).toBe('');
    expect(result.brief).toBe('');
  });

  it('shows content with line numbers, no \\r, invalid bytes lossily, sorted by path', async () => {
    const result = await grep().call({ pattern: 'zebra', output_mode: 'content' });
    expect(result.output).toBe(
      [
        '.env.example:1:zebra',
        'a.ts:1:const zebra = 1;',
        'a.ts:2:console.log(zebra);',
        'crlf.txt:2:beta zebra',
        'ctx.txt:2:zebra two',
        'ctx.txt:8:zebra eight',
        'latin1.txt:1:caf\uFFFD zebra',
        'sub/b.ts:1:// zebra',
      ].join('\n'),
    );
    // Sensitive files are left out silently: a warning naming the ones that matched would be an oracle.
    expect(result.message).toBe('');
  });

  it('shows content without line numbers when -n is false', async () => {
    const result = await grep().call({
      pattern: 'zebra',
      output_mode: 'content',
      '-n': false,
      glob: '!.env*',
    });
    expect(result.output).toBe(
      [
        'a.ts:const zebra = 1;',
        'a.ts:console.log(zebra);',
        'crlf.txt:beta zebra',
        'ctx.txt:zebra two',
        'ctx.txt:zebra eight',
        'latin1.txt:caf\uFFFD zebra',
        'sub/b.ts:// zebra',
      ].join('\n'),
    );
    expect(result.message).toBe('');
  });

  it('separates context groups and files with `--`, dropping sensitive files and their separators', async () => {
    const result = await grep().call({ pattern: 'zebra', output_mode: 'content', '-C': 1 });
    expect(result.output).toBe(
      [
        '.env.example:1:zebra',
        '--',
        'a.ts:1:const zebra = 1;',
        'a.ts:2:console.log(zebra);',
        '--',
        'crlf.txt-1-alpha',
        'crlf.txt:2:beta zebra',
        'crlf.txt-3-gamma',
        '--',
        'ctx.txt-1-one',
        'ctx.txt:2:zebra two',
        'ctx.txt-3-three',
        '--',
        'ctx.txt-7-seven',
        'ctx.txt:8:zebra eight',
        'ctx.txt-9-nine',
        '--',
        'latin1.txt:1:caf\uFFFD zebra',
        '--',
        'sub/b.ts:1:// zebra',
      ].join('\n'),
    );
    // Sensitive files are left out silently: a warning naming the ones that matched would be an oracle.
    expect(result.message).toBe('');
  });

  it('applies -A and -B separately, and context without line numbers', async () => {
    const after = await grep().call({ pattern: 'two', output_mode: 'content', '-A': 2, path: 'ctx.txt' });
    expect(after.output).toBe('ctx.txt:2:zebra two\nctx.txt-3-three\nctx.txt-4-four');
    const before = await grep().call({
      pattern: 'eight',
      output_mode: 'content',
      '-B': 1,
      '-n': false,
      path: 'ctx.txt',
    });
    expect(before.output).toBe('ctx.txt-seven\nctx.txt:zebra eight');
  });

  it('counts matches per file with a summary', async () => {
    const result = await grep().call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(result.output).toBe(
      ['.env.example:1', 'a.ts:2', 'crlf.txt:1', 'ctx.txt:2', 'latin1.txt:1', 'sub/b.ts:1'].join('\n'),
    );
    expect(result.message).toBe('Found 8 total occurrences across 6 files.');
  });

  it('prefixes the file name when searching a single file', async () => {
    const result = await grep().call({ pattern: 'zebra', output_mode: 'content', path: 'sub/b.ts' });
    expect(result.output).toBe('b.ts:1:// zebra');
    const files = await grep().call({ pattern: 'zebra', path: 'sub/b.ts' });
    expect(files.output).toBe('b.ts');
  });

  it('drops a sensitive file searched directly', async () => {
    const result = await grep().call({ pattern: 'zebra', output_mode: 'count_matches', path: '.env' });
    expect(result.output).toBe('');
    expect(result.message).toBe(
      'No matches found. Skipped 1 sensitive file(s) (.env) to protect secrets. These files may contain credentials or private keys.',
    );
  });

  it('respects .gitignore also in a workspace that is not a git repository', async ({ workspace }) => {
    await workspace.writeAll({ '.gitignore': 'build/\n', 'build/out.js': 'zebra\n', 'src/a.js': 'zebra\n' });
    const tool = new Grep(workspace.runtime());
    expect((await tool.call({ pattern: 'zebra' })).output).toBe('src/a.js');
    const all = await tool.call({ pattern: 'zebra', include_ignored: true });
    expect(String(all.output).split('\n').sort()).toEqual(['build/out.js', 'src/a.js']);
  });

  it('drops a sensitive file searched through a symlink with an innocent name', async () => {
    await tree.symlink('env-alias.txt', '.env');
    try {
      const result = await grep().call({ pattern: 'ZEBRA', output_mode: 'content', path: 'env-alias.txt' });
      expect(result.output).toBe('');
      expect(result.message).toBe(
        'No matches found. Skipped 1 sensitive file(s) (env-alias.txt) to protect secrets. These files may contain credentials or private keys.',
      );
    } finally {
      await rm(tree.at('env-alias.txt'));
    }
  });

  it('leaves out files the workspace deny rules refuse', async () => {
    const result = await grep({ deny: ['sub/**'] }).call({ pattern: 'zebra', output_mode: 'count_matches' });
    expect(result.output).toBe(
      ['.env.example:1', 'a.ts:2', 'crlf.txt:1', 'ctx.txt:2', 'latin1.txt:1'].join('\n'),
    );
    expect(result.message).toBe('Found 7 total occurrences across 5 files.');
  });

  it('honours -i, type, glob, multiline and include_ignored', async () => {
    const caseSensitive = await grep().call({ pattern: 'ZEBRA', glob: '*.ts' });
    expect(caseSensitive.message).toBe('No matches found.');
    const caseInsensitive = await grep().call({ pattern: 'ZEBRA', '-i': true, glob: '*.ts' });
    expect(caseInsensitive.output).toBe('sub/b.ts\na.ts');
    const typed = await grep().call({ pattern: 'zebra', type: 'ts', output_mode: 'count_matches' });
    expect(typed.output).toBe('a.ts:2\nsub/b.ts:1');
    const multiline = await grep().call({ pattern: 'alpha.+beta', multiline: true, output_mode: 'content' });
    expect(multiline.output).toBe('crlf.txt:1:alpha\ncrlf.txt:2:beta zebra');
    const ignored = await grep().call({ pattern: 'zebra ignored' });
    expect(ignored.message).toBe('No matches found.');
    const included = await grep().call({ pattern: 'zebra ignored', include_ignored: true });
    expect(included.output).toBe('ignored.txt');
  });
});

describe('Grep pagination and limits', () => {
  it('pages through results with offset and head_limit', async () => {
    const first = await grep().call({ pattern: 'zebra', head_limit: 2 });
    expect(first.output).toBe('.env.example\nctx.txt');
    expect(first.message).toBe(`Results truncated to 2 lines (total: 6). Use offset=2 to see more.`);
    const second = await grep().call({ pattern: 'zebra', head_limit: 2, offset: 2 });
    expect(second.output).toBe('sub/b.ts\ncrlf.txt');
    expect(second.message).toBe(`Results truncated to 2 lines (total: 6). Use offset=4 to see more.`);
    const last = await grep().call({ pattern: 'zebra', head_limit: '2', offset: '4' });
    expect(last.output).toBe('latin1.txt\na.ts');
    expect(last.message).toBe('');
    const beyond = await grep().call({ pattern: 'zebra', offset: 10 });
    expect(beyond.output).toBe('');
    expect(beyond.message).toBe('No matches found.');
    const unlimited = await grep().call({
      pattern: 'zebra',
      output_mode: 'content',
      head_limit: 0,
      glob: 'ctx*',
    });
    expect(unlimited.output).toBe('ctx.txt:2:zebra two\nctx.txt:8:zebra eight');
  });

  it('cuts long lines at 2,000 characters and the output at 50,000', async ({ workspace }) => {
    await workspace.write('long.txt', `zebra${'x'.repeat(2995)}\n`);
    await workspace.write('wide.txt', `${`zebra ${'y'.repeat(994)}\n`.repeat(60)}`);
    const tool = new Grep(workspace.runtime());
    const long = await tool.call({ pattern: 'zebra', output_mode: 'content', path: 'long.txt' });
    // The cap holds the marker too: the whole line is 2,000 characters, as ReadFile's lines are.
    expect(long.output).toBe(`long.txt:1:zebra${'x'.repeat(2000 - 16 - 14)}[...truncated]`);
    expect((long.output as string).length).toBe(2000);
    expect(long.message).toBe('Output is truncated to fit in the message.');
    // An emoji across the cut is left out whole, never split into half a surrogate pair.
    await workspace.write('emoji.txt', `zebra${'x'.repeat(1968)}😀${'x'.repeat(100)}\n`);
    const emoji = await tool.call({ pattern: 'zebra', output_mode: 'content', path: 'emoji.txt' });
    expect(emoji.output).toBe(`emoji.txt:1:zebra${'x'.repeat(1968)}[...truncated]`);
    const wide = await tool.call({
      pattern: 'zebra',
      output_mode: 'content',
      path: 'wide.txt',
      head_limit: 0,
    });
    const lines = (wide.output as string).split('\n');
    expect(lines).toHaveLength(49);
    expect((wide.output as string).length).toBeLessThanOrEqual(50_000);
    expect(lines[48]).toBe(`wide.txt:49:zebra ${'y'.repeat(994)}`);
    expect(wide.message).toBe('Output is truncated to fit in the message.');
  });
});

describe('Grep checks and failures', () => {
  it('takes its output cap as a tool option, and says it in the description', async () => {
    const tool = grep({}, { maxOutputChars: 30 });
    const result = await tool.call({ pattern: 'zebra', output_mode: 'content', path: 'ctx.txt' });
    expect(result.output).toBe('ctx.txt:2:zebra two');
    expect(result.message).toBe('Output is truncated to fit in the message.');
    expect(tool.description).toContain('the output at 30.');
    expect(grep().description).toContain('the output at 50000.');
    expect(() => grep({}, { maxOutputChars: -1 })).toThrow(
      'Grep: maxOutputChars must be a positive number, got -1.',
    );
  });

  it('refuses paths outside the workspace and reports missing ones', async () => {
    for (const input of [tree.outsideDir, '../x']) {
      expect(await grep().call({ pattern: 'zebra', path: input })).toMatchObject({
        isError: true,
        message: `\`${input}\` is outside the workspace. You can only search within the working directory and additional directories.`,
        brief: 'Path outside workspace',
      });
    }
    for (const missing of ['nope', `${'n'.repeat(300)}.txt`]) {
      expect(await grep().call({ pattern: 'zebra', path: missing })).toMatchObject({
        isError: true,
        message: `\`${missing}\` does not exist.`,
        brief: 'Path not found',
      });
    }
  });

  it('answers `No matches found.` when ripgrep searched no file at all', async ({ workspace }) => {
    await workspace.writeAll({
      'a.js': 'zzz\n',
      'only-git/.git/HEAD': 'zzz\n',
      'only-ignored/.gitignore': '*\n',
      'only-ignored/a.txt': 'zzz\n',
    });
    await workspace.mkdir('empty');
    const tool = new Grep(workspace.runtime());
    const calls = [
      { glob: '*.py' },
      { type: 'rust' },
      { path: 'empty' },
      { path: 'only-git' },
      { path: 'only-ignored' },
    ];
    for (const call of calls) {
      for (const output_mode of ['files_with_matches', 'content', 'count_matches'] as const) {
        expect(await tool.call({ pattern: 'zzz', output_mode, ...call }), JSON.stringify(call)).toMatchObject(
          {
            isError: false,
            output: '',
            message: 'No matches found.',
            brief: '',
          },
        );
      }
    }
  });

  it('reports an invalid regex', async () => {
    const result = await grep().call({ pattern: '(' });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('Failed to grep');
    expect(result.message.startsWith('Failed to grep. Error: rg: regex parse error:')).toBe(true);
  });

  it('runs the portable search when the configured ripgrep does not exist, with the same answer', async () => {
    const withRipgrep = await grep().call({ pattern: 'zebra', output_mode: 'content' });
    const result = await grep({}, { rgPath: tree.at('no/such/rg') }).call({
      pattern: 'zebra',
      output_mode: 'content',
    });
    expect(withRipgrep.extras).toEqual({ total: 8, search: 'ripgrep' });
    expect(result).toEqual({ ...withRipgrep, extras: { total: 8, search: 'portable' } });
  });

  it('refuses a timeout that is not a positive number and an rgPath that is not a string', () => {
    expect(() => grep({}, { timeoutMs: 0 })).toThrow('Grep: timeoutMs must be a positive number, got 0.');
    const rgPath = 7 as unknown as string;
    expect(() => grep({}, { rgPath })).toThrow('Grep: rgPath must be a string, got number.');
  });

  it('returns partial results, or a timeout error, when the search runs out of time', async ({
    workspace,
  }) => {
    const body = 'zebra line\n'.repeat(2000);
    await workspace.writeAll(
      Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}.txt`, body])),
    );
    const result = await new Grep(workspace.runtime(), { timeoutMs: 5 }).call({
      pattern: 'zebra',
      output_mode: 'content',
    });
    if (result.isError) {
      expect(result.message).toBe('Grep timed out after 0.005s. Try a more specific path or pattern.');
      expect(result.brief).toBe('Grep timed out');
    } else {
      expect(result.message).toContain('Grep timed out after 0.005s. Partial results returned.');
      expect((result.output as string).split('\n')[0]).toMatch(/^f\d+\.txt:1:zebra line$/);
    }
  });
});

describe('Grep with a scripted ripgrep', () => {
  async function fakeRipgrep(script: string): Promise<string> {
    const file = tree.at(`.fake/rg-${Math.random().toString(36).slice(2)}`);
    await tree.write(file, `#!/bin/sh\n${script}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it.skipIf(process.platform === 'win32')(
    'runs ripgrep with the listed flags, no user config and stdin closed',
    async () => {
      const log = tree.at('.fake/args.log');
      const rgPath = await fakeRipgrep(
        `for a in "$@"; do echo "$a"; done > '${log}'\n` +
          `echo "config=\${RIPGREP_CONFIG_PATH-unset}" >> '${log}'\n` +
          `if read -r line; then echo stdin=open >> '${log}'; else echo stdin=closed >> '${log}'; fi\nexit 1`,
      );
      const configBefore = process.env['RIPGREP_CONFIG_PATH'];
      process.env['RIPGREP_CONFIG_PATH'] = tree.at('.fake/rgrc');
      try {
        const files = await grep({}, { rgPath }).call({ pattern: '-zebra', glob: '*.ts', '-i': true });
        expect(files.message).toBe('No matches found.');
        expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
          ...['--no-config', '--hidden', '--null', '--no-heading', '--color', 'never', '--crlf'],
          ...['--files-with-matches', '--max-columns', '500', '--ignore-case', '--no-require-git'],
          ...['--glob', '*.ts'],
          ...['--glob', '!.git', '--glob', '!.svn', '--glob', '!.hg', '--glob', '!.bzr', '--glob', '!.jj'],
          ...['--glob', '!.sl', '--', '-zebra', 'config=unset', 'stdin=closed'],
        ]);
        await grep({}, { rgPath }).call({
          pattern: 'zebra',
          path: 'a.ts',
          output_mode: 'content',
          '-C': 2,
          '-A': 1,
          multiline: true,
          include_ignored: true,
          type: 'ts',
        });
        expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
          ...['--no-config', '--hidden', '--null', '--no-heading', '--color', 'never', '--crlf'],
          ...['--line-number', '--column', '--byte-offset', '--with-filename'],
          ...['--max-columns', '2000', '--max-columns-preview', '--context', '2', '--after-context', '1'],
          ...['--multiline', '--multiline-dotall', '--no-ignore', '--type', 'ts'],
          ...['--glob', '!.git', '--glob', '!.svn', '--glob', '!.hg', '--glob', '!.bzr', '--glob', '!.jj'],
          ...['--glob', '!.sl', '--', 'zebra', 'a.ts', 'config=unset', 'stdin=closed'],
        ]);
      } finally {
        // Test files of a worker share one process (isolate: false): put the variable back as it was.
        if (configBefore === undefined) delete process.env['RIPGREP_CONFIG_PATH'];
        else process.env['RIPGREP_CONFIG_PATH'] = configBefore;
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    'runs the portable search when the ripgrep it found disappears',
    async () => {
      const rgPath = await fakeRipgrep("printf 'a.ts\\0'");
      const tool = grep({}, { rgPath });
      expect((await tool.call({ pattern: 'zebra' })).output).toBe('a.ts');
      await rm(rgPath);
      const portable = await tool.call({ pattern: 'zebra' });
      const withRipgrep = await grep().call({ pattern: 'zebra' });
      expect(withRipgrep.extras).toMatchObject({ search: 'ripgrep' });
      expect(portable).toEqual({ ...withRipgrep, extras: { ...withRipgrep.extras, search: 'portable' } });
    },
  );

  it.skipIf(process.platform === 'win32')(
    'keeps partial results on timeout, and errors without any',
    async () => {
      const partial = await fakeRipgrep("printf 'a.ts\\0'\nexec sleep 30");
      const withResults = await grep({}, { rgPath: partial, timeoutMs: 300 }).call({ pattern: 'zebra' });
      expect(withResults).toMatchObject({
        isError: false,
        output: 'a.ts',
        message: 'Grep timed out after 0.3s. Partial results returned.',
      });
      const silent = await fakeRipgrep('exec sleep 30');
      expect(await grep({}, { rgPath: silent, timeoutMs: 300 }).call({ pattern: 'zebra' })).toMatchObject({
        isError: true,
        message: 'Grep timed out after 0.3s. Try a more specific path or pattern.',
        brief: 'Grep timed out',
      });
    },
  );

  it.skipIf(process.platform === 'win32')('keeps results when some paths could not be searched', async () => {
    const rgPath = await fakeRipgrep(
      "printf 'a.ts\\0'\necho 'rg: ./locked: Permission denied (os error 13)' >&2\necho 'rg: ./other: Permission denied' >&2\nexit 2",
    );
    expect(await grep({}, { rgPath }).call({ pattern: 'zebra' })).toMatchObject({
      isError: false,
      output: 'a.ts',
      message: 'Some paths could not be searched: rg: ./locked: Permission denied (os error 13)',
    });
  });

  it.skipIf(process.platform === 'win32')('kills ripgrep at once when the call is aborted', async () => {
    const pidFile = tree.at('.fake/pid');
    const rgPath = await fakeRipgrep(`echo $$ > '${pidFile}'\nexec sleep 30`);
    const controller = new AbortController();
    const pending = grep({}, { rgPath }).call({ pattern: 'zebra' }, { signal: controller.signal });
    let pid = '';
    while (pid === '') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pid = await readFile(pidFile, 'utf8').then(
        (text) => text.trim(),
        () => '',
      );
    }
    controller.abort();
    expect(await pending).toMatchObject({
      isError: true,
      message: 'Failed to grep. Error: The search was aborted.',
      brief: 'Failed to grep',
    });
    expect(() => process.kill(Number(pid), 0)).toThrow();
    const already = await grep({}, { rgPath }).call({ pattern: 'zebra' }, { signal: AbortSignal.abort() });
    expect(already.isError).toBe(true);
  });
});
