import type { TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchTree } from '../__fixtures__/search-tree.js';
import { compileGlob } from './glob-pattern.js';
import { walkTree } from './walk-tree.js';

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
