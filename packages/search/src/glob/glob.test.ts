import path from 'node:path';
import {
  it,
  rewriteKeepingMtime,
  type TempWorkspace,
  type WorkspaceRuntimeOptions,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { GLOB_MAX_MATCHES } from '../limits.js';
import { Glob } from './glob.js';

let tree: TempWorkspace;

beforeAll(async () => {
  tree = await createSearchTree(
    {
      '.gitignore': 'dist/\n*.log\n',
      '.ignore': 'tmp/\n',
      '.env': 'TOKEN=1\n',
      '.hidden/h.ts': '',
      'app.log': '',
      'src/a.ts': '',
      'src/b.js': '',
      'src/main.py': '',
      'src/main/app.py': '',
      'src/lib/c.ts': '',
      'src/lib/deep/d.ts': '',
      'src/.gitignore': 'generated/\n!keep.log\n',
      'src/generated/g.ts': '',
      'src/keep.log': '',
      'src/other.log': '',
      'dist/out.ts': '',
      'tmp/t.ts': '',
      'node_modules/pkg/index.ts': '',
      'docs/guide.md': '',
      'a/x': '',
      'a-b/x': '',
    },
    { git: true, outside: { 'secret.ts': 'export {};\n', 'nested/deep.ts': '' } },
  );
  await tree.symlink('linkdir', 'src/lib');
  await tree.symlink('outlink', tree.outsideDir);
  await tree.symlink('docs/alias.md', 'guide.md');
});

afterAll(async () => {
  await tree.cleanup();
});

function glob(options: WorkspaceRuntimeOptions = {}) {
  return new Glob(tree.runtime(options));
}

describe('Glob matching', () => {
  it('finds files by `**` pattern, skipping ignored entries and counting them in the hint', async () => {
    const result = await glob().call({ pattern: '**/*.ts' });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(['.hidden/h.ts', 'src/a.ts', 'src/lib/c.ts', 'src/lib/deep/d.ts'].join('\n'));
    expect(result.message).toBe(
      'Found 4 matches for pattern `**/*.ts`. 4 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
    expect(result.brief).toBe('');
  });

  it('includes ignored entries (gitignore, .ignore, nested rules, node_modules) with include_ignored', async () => {
    const result = await glob().call({ pattern: '**/*.ts', include_ignored: true });
    expect(result.output).toBe(
      [
        '.hidden/h.ts',
        'dist/out.ts',
        'node_modules/pkg/index.ts',
        'src/a.ts',
        'src/generated/g.ts',
        'src/lib/c.ts',
        'src/lib/deep/d.ts',
        'tmp/t.ts',
      ].join('\n'),
    );
    expect(result.message).toBe('Found 8 matches for pattern `**/*.ts`.');
  });

  it('applies a nested negation over a parent rule', async () => {
    const result = await glob().call({ pattern: '**/*.log' });
    expect(result.output).toBe('src/keep.log');
    expect(result.message).toBe(
      'Found 1 matches for pattern `**/*.log`. 2 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
  });

  it('applies the repository root ignore files when searching a subdirectory', async () => {
    const result = await glob().call({ pattern: '*.log', directory: 'src' });
    expect(result.output).toBe('keep.log');
    expect(result.message).toBe(
      'Found 1 matches for pattern `*.log`. 1 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
  });

  it('searches a folder a deeper ignore file takes back by its own rules, as git does', async () => {
    const repo = await createSearchTree(
      {
        '.gitignore': '/pkg/*/lib\n*.log\n',
        'pkg/kept/.gitignore': '!/lib\n',
        'pkg/kept/lib/index.ts': '',
        'pkg/kept/lib/debug.log': '',
        'pkg/other/lib/index.ts': '',
        'pkg/other/src/index.ts': '',
      },
      { git: true },
    );
    try {
      const result = await new Glob(repo.runtime()).call({ pattern: '**/*.{ts,log}' });
      // `git status` lists the same two files: `/pkg/*/lib` names the folder, not what is in it.
      expect(result.output).toBe(['pkg/kept/lib/index.ts', 'pkg/other/src/index.ts'].join('\n'));
      expect(result.message).toBe(
        'Found 2 matches for pattern `**/*.{ts,log}`. 2 more matches are hidden by ignore rules; set include_ignored to true to include them.',
      );
    } finally {
      await repo.cleanup();
    }
  });

  it('treats a search directory inside an ignored folder alike, however the rule is spelled', async () => {
    for (const rule of ['dist/\n', '/dist/\n', 'dist\n']) {
      const repo = await createSearchTree(
        { '.gitignore': rule, 'dist/sub/y.ts': '', 'dist/z.ts': '' },
        { git: true },
      );
      try {
        const result = await new Glob(repo.runtime()).call({ pattern: '**', directory: 'dist' });
        expect({ rule, output: result.output, message: result.message }).toEqual({
          rule,
          output: '',
          message:
            'No matches found for pattern `**`. 3 more matches are hidden by ignore rules; set include_ignored to true to include them.',
        });
      } finally {
        await repo.cleanup();
      }
    }
  });

  it('expands braces', async () => {
    const result = await glob().call({ pattern: 'src/*.{ts,js}' });
    expect(result.output).toBe('src/a.ts\nsrc/b.js');
    expect(result.message).toBe('Found 2 matches for pattern `src/*.{ts,js}`.');
    // A leading `./` in an alternative is dropped as in the whole pattern, and a brace group brace expansion refuses
    // (`..` reads as a range there) is read by micromatch's rules alone: it was taken for a literal name, which no
    // file has, and the name filter listed nothing.
    expect((await glob().call({ pattern: '{./src/a.ts,docs/guide.md}' })).output).toBe(
      'docs/guide.md\nsrc/a.ts',
    );
    expect((await glob().call({ pattern: 'a/{..x,x}' })).output).toBe('a/x');
  });

  it('matches dot files with wildcards and lists directories unless include_dirs is false', async () => {
    const all = await glob().call({ pattern: '*' });
    expect(all.output).toBe(
      ['.env', '.gitignore', '.hidden', '.ignore', 'a', 'a-b', 'docs', 'linkdir', 'outlink', 'src'].join(
        '\n',
      ),
    );
    expect(all.message).toBe(
      'Found 10 matches for pattern `*`. 5 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
    const files = await glob().call({ pattern: '*', include_dirs: false });
    expect(files.output).toBe('.env\n.gitignore\n.ignore');
    expect(files.message).toBe(
      'Found 3 matches for pattern `*`. 1 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
  });

  it('returns the descendants of a directory for a pattern ending in `**`, sorted component-wise', async () => {
    const result = await glob().call({ pattern: 'src/**' });
    expect(result.output).toBe(
      [
        'src/.gitignore',
        'src/a.ts',
        'src/b.js',
        'src/keep.log',
        'src/lib',
        'src/lib/c.ts',
        'src/lib/deep',
        'src/lib/deep/d.ts',
        'src/main',
        'src/main/app.py',
        'src/main.py',
      ].join('\n'),
    );
    // Never the directory itself, and never a directory at all with include_dirs false.
    const files = await glob().call({ pattern: 'src/lib/**', include_dirs: false });
    expect(files.output).toBe('src/lib/c.ts\nsrc/lib/deep/d.ts');
    const prefixDirectory = await glob().call({ pattern: 'src/lib', include_dirs: false });
    expect(prefixDirectory.output).toBe('');
    const nested = await glob().call({ pattern: '{src,src/lib}/**', include_dirs: false });
    expect(nested.output).not.toMatch(/^src(\/lib)?$/m);
    const sorted = await glob().call({ pattern: '{a,a-b}/x' });
    expect(sorted.output).toBe('a/x\na-b/x');
  });

  it('skips VCS folders unless include_ignored', async () => {
    const skipped = await glob().call({ pattern: '**/HEAD' });
    expect(skipped.output).toBe('');
    expect(skipped.message).toBe('No matches found for pattern `**/HEAD`.');
    const included = await glob().call({ pattern: '**/HEAD', include_ignored: true });
    expect(included.output).toBe('.git/HEAD');
  });

  it('lists symlinks but never descends symlinked directories', async () => {
    const deep = await glob().call({ pattern: '**/c.ts' });
    expect(deep.output).toBe('src/lib/c.ts');
    const links = await glob().call({ pattern: '*link*' });
    expect(links.output).toBe('linkdir\noutlink');
    const linkFiles = await glob().call({ pattern: '*link*', include_dirs: false });
    expect(linkFiles.message).toBe('No matches found for pattern `*link*`.');
    const docs = await glob().call({ pattern: 'docs/*', include_dirs: false });
    expect(docs.output).toBe('docs/alias.md\ndocs/guide.md');
  });

  it('caps the output at 1000 paths', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 1050 }, (_, index) => [`many/f${String(index).padStart(4, '0')}.txt`, '']),
    );
    await tree.writeAll(many);
    try {
      const result = await glob().call({ pattern: 'many/*.txt' });
      const lines = (result.output as string).split('\n');
      expect(lines).toHaveLength(GLOB_MAX_MATCHES);
      expect(lines[0]).toBe('many/f0000.txt');
      expect(lines[999]).toBe('many/f0999.txt');
      expect(result.message).toBe(
        'Found 1050 matches for pattern `many/*.txt`. Only the first 1000 matches are returned. You may want to use a more specific pattern.',
      );
    } finally {
      await (await import('node:fs/promises')).rm(tree.at('many'), { recursive: true });
    }
  });

  it('takes its result cap as a tool option, and says it in the message and the description', async () => {
    const tool = new Glob(tree.runtime(), { maxMatches: 2 });
    const result = await tool.call({ pattern: 'src/*.*' });
    expect(result.output).toBe('src/.gitignore\nsrc/a.ts');
    expect(result.message).toBe(
      'Found 5 matches for pattern `src/*.*`. Only the first 2 matches are returned. You may want to use a more specific pattern. 1 more matches are hidden by ignore rules; set include_ignored to true to include them.',
    );
    expect(tool.description).toContain('At most 2 paths are returned');
    expect(new Glob(tree.runtime()).description).toContain('At most 1000 paths are returned');
    expect(() => new Glob(tree.runtime(), { maxMatches: 0 })).toThrow(
      'Glob: maxMatches must be a positive number, got 0.',
    );
  });

  it('leaves out entries the workspace deny rules refuse', async () => {
    const result = await glob({ deny: ['**/docs/**'] }).call({ pattern: '**/*.md' });
    expect(result.message).toBe('No matches found for pattern `**/*.md`.');
  });
});

describe('Glob checks', () => {
  it('refuses empty, absolute and `..` patterns', async () => {
    const empty = await glob().call({ pattern: '' });
    expect(empty).toMatchObject({
      isError: true,
      message: 'Pattern cannot be empty.',
      brief: 'Invalid pattern',
    });
    for (const pattern of ['../*.ts', '/etc/*', 'src/../../x', '{a,..}/x']) {
      const result = await glob().call({ pattern });
      expect(result).toMatchObject({
        isError: true,
        message: `Pattern \`${pattern}\` must be relative to the search directory and may not contain \`..\`.`,
        brief: 'Invalid pattern',
      });
    }
  });

  // A name such as `a:12:b` or `c:notes.txt` is an ordinary name off Windows: Glob lists it, and it must take it back
  // (plain, or quoted as Grep's content lines show it). It was refused as absolute, `c:` read as a drive letter.
  it.runIf(process.platform !== 'win32')(
    'takes a pattern starting with a letter and a colon as relative where that is no drive letter',
    async ({ workspace }) => {
      await workspace.writeAll({ 'a:12:b': '', 'c:notes.txt': '', 'sub/c:x.txt': '' });
      const tool = new Glob(workspace.runtime());
      for (const [pattern, output] of [
        ['a:12:b', 'a:12:b'],
        ['"a:12:b"', 'a:12:b'],
        ['c:*', 'c:notes.txt'],
        ['c:notes.txt', 'c:notes.txt'],
      ]) {
        expect(await tool.call({ pattern: pattern! }), pattern).toMatchObject({ isError: false, output });
      }
      expect((await tool.call({ pattern: '**/c:*' })).output).toBe('c:notes.txt\nsub/c:x.txt');
    },
  );

  it('explains a brace range too large to expand and a pattern ending in `/`', async () => {
    expect(await glob().call({ pattern: 'src/f{1..1000}.txt' })).toMatchObject({
      isError: true,
      message:
        'Pattern `src/f{1..1000}.txt` has a brace range too large to expand (more than 256 patterns). Use a wildcard such as `*` instead.',
      brief: 'Invalid pattern',
    });
    for (const pattern of ['r/', '**/', 'src//a.ts']) {
      expect(await glob().call({ pattern })).toMatchObject({
        isError: true,
        message: `Pattern \`${pattern}\` has an empty path segment (a \`/\` at its end or \`//\`). Drop the extra \`/\` to match a directory itself, or end the pattern with \`/*\` or \`/**\` to match what it contains.`,
        brief: 'Invalid pattern',
      });
    }
  });

  it('matches a backtracking-prone pattern in bounded time, and refuses one only micromatch could run', async ({
    workspace,
  }) => {
    const name = 'a'.repeat(200);
    await workspace.writeAll({ [name]: '', [`d/${name}`]: '' });
    const tool = new Glob(workspace.runtime());
    expect(await tool.call({ pattern: '*a*a*a*a*a*a*a*ab' })).toMatchObject({ isError: false, output: '' });
    expect(await tool.call({ pattern: '**/*a*a*a*a*a*a*a*a', include_dirs: false })).toMatchObject({
      output: `${name}\nd/${name}`,
    });
    expect(await tool.call({ pattern: '+(*a*a*a*ab)' })).toMatchObject({
      isError: true,
      message:
        'Pattern `+(*a*a*a*ab)` combines more than 3 wildcards with extglobs, a leading `!` or POSIX classes, which cannot be matched in bounded time. Use only `*`, `?`, `[...]` and `**`, or fewer wildcards.',
      brief: 'Invalid pattern',
    });
  });

  it('refuses directories outside the workspace, also through a symlink', async () => {
    for (const directory of [tree.outsideDir, 'outlink', '..']) {
      const result = await glob().call({ pattern: '*', directory });
      expect(result).toMatchObject({
        isError: true,
        message: `\`${directory}\` is outside the workspace. You can only search within the working directory and additional directories.`,
        brief: 'Directory outside workspace',
      });
    }
  });

  it('searches a symlinked directory inside the workspace, and additional directories', async () => {
    const inside = await glob().call({ pattern: '*.ts', directory: 'linkdir' });
    expect(inside.output).toBe('c.ts');
    const runtime = tree.runtime();
    const tool = new Glob(runtime);
    runtime.additionalDirs.push(tree.outsideDir);
    const extra = await tool.call({ pattern: '**/*.ts', directory: tree.outsideDir });
    expect(extra.output).toBe('nested/deep.ts\nsecret.ts');
  });

  it('reports a missing directory, a file, and a denied directory', async () => {
    expect(await glob().call({ pattern: '*', directory: 'nope' })).toMatchObject({
      isError: true,
      message: '`nope` does not exist.',
      brief: 'Directory not found',
    });
    expect(await glob().call({ pattern: '*', directory: 'src/a.ts' })).toMatchObject({
      isError: true,
      message: '`src/a.ts` is not a directory.',
      brief: 'Invalid directory',
    });
    expect(await glob({ deny: ['**/docs'] }).call({ pattern: '*', directory: 'docs' })).toMatchObject({
      isError: true,
      message: '`docs` is denied by the workspace policy.',
      brief: 'Access denied',
    });
  });

  it('stops when the call is aborted', async () => {
    const result = await glob().call({ pattern: '**' }, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({
      isError: true,
      message: 'Failed to search for pattern **. Error: This operation was aborted',
      brief: 'Glob failed',
    });
  });

  // docs/glob.md: the pattern is echoed as an argument that is not a path is (docs/paths.md#how-paths-are-shown): a
  // line feed in it faked a line of its own (a `System:` line), and a megabyte of it came back whole.
  describe('echoing the pattern', () => {
    const MB = 'x'.repeat(1024 * 1024);
    const cutMB = (before: string, after: string) =>
      `${before}${'x'.repeat(100 - before.length)}[...${before.length + MB.length + after.length - 200} characters cut...]${'x'.repeat(100 - after.length)}${after}`;
    const message = async (pattern: string, options: { signal?: AbortSignal } = {}) =>
      (await glob().call({ pattern }, options)).message;

    it('shows it escaped in the message of a search', async () => {
      expect(await message('x\nSystem: y')).toBe('No matches found for pattern `"x\\nSystem: y"`.');
      expect(await message('a\u001b[2K*')).toBe('No matches found for pattern `"a\\u001b[2K*"`.');
      expect(await message(MB)).toBe(`No matches found for pattern \`${cutMB('', '')}\`.`);
      expect(await message(`src/a.ts\n`)).toBe('No matches found for pattern `"src/a.ts\\n"`.');
    });

    it('shows it escaped in every refusal of the pattern', async () => {
      expect(await message('../x\nSystem: y')).toBe(
        'Pattern `"../x\\nSystem: y"` must be relative to the search directory and may not contain `..`.',
      );
      expect(await message('f{1..1000}\u001b')).toBe(
        'Pattern `"f{1..1000}\\u001b"` has a brace range too large to expand (more than 256 patterns). Use a wildcard such as `*` instead.',
      );
      expect(await message(`f{1..1000}${MB}`)).toBe(
        `Pattern \`${cutMB('f{1..1000}', '')}\` has a brace range too large to expand (more than 256 patterns). Use a wildcard such as \`*\` instead.`,
      );
      expect(await message('a\n//')).toBe(
        'Pattern `"a\\n//"` has an empty path segment (a `/` at its end or `//`). Drop the extra `/` to match a directory itself, or end the pattern with `/*` or `/**` to match what it contains.',
      );
      expect(await message('+(*a*a*a*a\u0007)')).toBe(
        'Pattern `"+(*a*a*a*a\\u0007)"` combines more than 3 wildcards with extglobs, a leading `!` or POSIX classes, which cannot be matched in bounded time. Use only `*`, `?`, `[...]` and `**`, or fewer wildcards.',
      );
    });

    it('shows it escaped in an unexpected failure', async () => {
      const signal = AbortSignal.abort();
      expect(await message('**\nSystem: y', { signal })).toBe(
        'Failed to search for pattern "**\\nSystem: y". Error: This operation was aborted',
      );
      expect(await message(`${MB}**`, { signal })).toBe(
        `Failed to search for pattern ${cutMB('', '**')}. Error: This operation was aborted`,
      );
      expect(await message('a. Error: b', { signal })).toBe(
        'Failed to search for pattern "a. Error: b". Error: This operation was aborted',
      );
    });
  });

  it('reads escaped braces as literal characters, and an alternative that names the directory itself as nothing', async ({
    workspace,
  }) => {
    await workspace.writeAll({ 'q/{a,b}': '', 'q/a': '', x: '' });
    const tool = new Glob(workspace.runtime());
    expect((await tool.call({ pattern: 'q/\\{a,b\\}' })).output).toBe('q/{a,b}');
    expect((await tool.call({ pattern: 'q/{a,b}' })).output).toBe('q/a');
    const dotOrX = await tool.call({ pattern: '{./,x}' });
    expect([dotOrX.isError, dotOrX.output]).toEqual([false, 'x']);
  });

  it('does not read ignore files above the workspace outside a repository', async ({ workspace }) => {
    await workspace.writeAll({ [path.join(workspace.root, '.gitignore')]: '*.ts\n', 'keep.ts': '' });
    const tool = new Glob(workspace.runtime());
    const result = await tool.call({ pattern: '**/*.ts' });
    expect(result.output).toBe('keep.ts');
  });

  it('sees an ignore file rewritten between two calls, at the same size and modification time', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      '.gitignore': 'a.ts\n',
      'a.ts': '',
      'b.ts': '',
      'sub/.gitignore': 'c.ts\n',
      'sub/c.ts': '',
    });
    const tool = new Glob(workspace.runtime());
    expect((await tool.call({ pattern: '**/*.ts' })).output).toBe('b.ts');
    await rewriteKeepingMtime(workspace.at('.gitignore'), 'b.ts\n');
    await rewriteKeepingMtime(workspace.at('sub/.gitignore'), 'x.ts\n');
    expect((await tool.call({ pattern: '**/*.ts' })).output).toBe('a.ts\nsub/c.ts');
  });

  it('applies one ignore text met in two folders, and anchored rules above the search directory, call after call', async ({
    workspace,
  }) => {
    await workspace.writeAll({
      '.git/HEAD': '',
      '.gitignore': '/pkg/a.ts\n/pkg/sub/\n',
      'pkg/a.ts': '',
      'pkg/b.ts': '',
      'pkg/sub/c.ts': '',
      'pkg/x/.gitignore': '/a.ts\n',
      'pkg/x/a.ts': '',
      'pkg/x/y/a.ts': '',
      'pkg/z/w/.gitignore': '/a.ts\n',
      'pkg/z/w/a.ts': '',
      'pkg/z/a.ts': '',
    });
    const tool = new Glob(workspace.runtime());
    for (let call = 0; call < 2; call++) {
      const result = await tool.call({ pattern: '**/*.ts', directory: 'pkg' });
      expect(result.output).toBe(['b.ts', 'x/y/a.ts', 'z/a.ts'].join('\n'));
      expect(result.message).toBe(
        'Found 3 matches for pattern `**/*.ts`. 4 more matches are hidden by ignore rules; set include_ignored to true to include them.',
      );
    }
  });
});
