import type { TempWorkspace } from '@kimi-tools/test-kit';
import micromatch from 'micromatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { compileGlob } from './glob-pattern.js';
import { walkTree } from './walk-tree.js';
import { localFileSystem } from '@kimi-tools/core/fs';

let tree: TempWorkspace;

beforeAll(async () => {
  const files: Record<string, string> = { '.gitignore': 'big/\nsmall/\n', 'kept.txt': '' };
  for (let dir = 0; dir < 20; dir++) {
    for (let file = 0; file < 20; file++) files[`big/d${dir}/deep/f${file}.txt`] = '';
  }
  files['small/one.txt'] = '';
  tree = await createSearchTree(files);
});

afterAll(async () => {
  await tree.cleanup();
});

function walk(hiddenWalkBudget?: number) {
  return walkTree({
    fs: localFileSystem,
    root: tree.workDir,
    glob: compileGlob('**/*.txt'),
    includeDirs: false,
    includeIgnored: false,
    ancestorLevels: [],
    hiddenWalkBudget,
  });
}

describe('walkTree hidden-match counting', () => {
  it('counts every hidden match when the budget allows', async () => {
    const result = await walk();
    expect(result.matches).toEqual(['kept.txt']);
    expect(result.hiddenMatches).toBe(401);
  });

  it('stops counting when the budget is spent, shallow folders first', async () => {
    const result = await walk(60);
    expect(result.matches).toEqual(['kept.txt']);
    // Breadth-first, 8 folders at a time: `big` and `small` (one match), then the 20 `big/d*` in batches of 8, 8
    // and 4 + the first 4 `deep` folders (80 matches), after which the budget is spent.
    expect(result.hiddenMatches).toBe(81);
  });
});

describe('walkTree over many folders', () => {
  let wide: TempWorkspace;

  beforeAll(async () => {
    const files: Record<string, string> = {
      // Rules on paths and on basenames in one file, and a deeper file that takes one back.
      '.gitignore': '/pkg/*/lib\n*.log\n!keep.log\npkg/p1/src/gen/\n',
      'pkg/p2/.gitignore': '!/lib\n',
    };
    for (let pkg = 0; pkg < 60; pkg++) {
      files[`pkg/p${pkg}/src/index.ts`] = '';
      files[`pkg/p${pkg}/src/deep/a/b/c.ts`] = '';
      files[`pkg/p${pkg}/lib/index.ts`] = '';
      files[`pkg/p${pkg}/debug.log`] = '';
    }
    files['pkg/p1/src/gen/x.ts'] = '';
    files['pkg/p3/keep.log'] = '';
    wide = await createSearchTree(files);
  });

  afterAll(async () => {
    await wide.cleanup();
  });

  it('ends with the failure of a check made in a directory callback, instead of throwing it into the process', async () => {
    const walk = walkTree({
      fs: localFileSystem,
      root: wide.workDir,
      glob: compileGlob('**/*.ts'),
      includeDirs: false,
      includeIgnored: false,
      ancestorLevels: [],
      isDenied: (absolutePath) => {
        if (absolutePath.endsWith('deep')) throw new Error('deny rules failed');
        return false;
      },
    });
    await expect(walk).rejects.toThrow('deny rules failed');
  });

  it('lists every kept file of a tree wider than the folders read at once, and counts the ignored ones', async () => {
    const result = await walkTree({
      fs: localFileSystem,
      root: wide.workDir,
      glob: compileGlob('**/*.{ts,log}', micromatch),
      includeDirs: false,
      includeIgnored: false,
      ancestorLevels: [],
    });
    const expected = ['pkg/p3/keep.log', 'pkg/p2/lib/index.ts'];
    for (let pkg = 0; pkg < 60; pkg++)
      expected.push(`pkg/p${pkg}/src/index.ts`, `pkg/p${pkg}/src/deep/a/b/c.ts`);
    expect([...result.matches].sort()).toEqual(expected.sort());
    // The files of 59 ignored `lib` folders (`pkg/p2` takes its own back), 60 ignored logs, the ignored `gen` folder.
    expect(result.hiddenMatches).toBe(59 + 60 + 1);
  });
});

describe('walkTree where the name alone decides', () => {
  let named: TempWorkspace;

  beforeAll(async () => {
    named = await createSearchTree({
      'types.ts/inner.ts': '',
      'types.ts/notes.md': '',
      'src/deep/a.ts': '',
      'src/b.tsx': '',
      'top.ts': '',
    });
  });

  afterAll(async () => {
    await named.cleanup();
  });

  const walkNamed = (includeDirs: boolean) =>
    walkTree({
      fs: localFileSystem,
      root: named.workDir,
      glob: compileGlob('**/*.ts'),
      includeDirs,
      includeIgnored: false,
      ancestorLevels: [],
    });

  it('lists a directory whose name matches only with include_dirs, and enters it either way', async () => {
    expect(compileGlob('**/*.ts').nameDecides).toBe(true);
    expect([...(await walkNamed(true)).matches].sort()).toEqual([
      'src/deep/a.ts',
      'top.ts',
      'types.ts',
      'types.ts/inner.ts',
    ]);
    expect([...(await walkNamed(false)).matches].sort()).toEqual([
      'src/deep/a.ts',
      'top.ts',
      'types.ts/inner.ts',
    ]);
  });
});
