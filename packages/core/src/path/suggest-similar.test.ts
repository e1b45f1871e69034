import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { suggestSimilarFiles } from './suggest-similar.js';

let root: string;
let work: string;

async function touch(...files: string[]) {
  for (const file of files) {
    await fs.mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await fs.writeFile(path.join(work, file), '');
  }
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-suggest-')));
  work = path.join(root, 'work');
  await fs.mkdir(work);
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('suggestSimilarFiles', () => {
  it('suggests the same name in another case first, relative to workDir', async () => {
    await touch('src/Readme.md', 'src/readme.txt', 'src/unrelated.py');
    expect(await suggestSimilarFiles(path.join(work, 'src', 'README.md'), work)).toEqual([
      path.join('src', 'Readme.md'),
      path.join('src', 'readme.txt'),
    ]);
  });

  it('suggests the same stem with another or no extension', async () => {
    await touch('app.ts', 'app', 'apple.ts');
    expect(await suggestSimilarFiles(path.join(work, 'app.js'), work)).toEqual(['app', 'app.ts']);
  });

  it('suggests small typos, transpositions included, best first, ties by name, at most 3', async () => {
    // distance from cofnig.ts: config.ts 1 (transposition); confi.ts, config.tsx, confog.ts 2 each
    await touch('config.ts', 'confog.ts', 'confi.ts', 'config.tsx', 'zzzzzz.ts');
    expect(await suggestSimilarFiles(path.join(work, 'cofnig.ts'), work)).toEqual([
      'config.ts',
      'confi.ts',
      'config.tsx',
    ]);
  });

  it('does not suggest names that differ a lot', async () => {
    await touch('main.py', 'index.ts');
    expect(await suggestSimilarFiles(path.join(work, 'server.go'), work)).toEqual([]);
  });

  it('suggests files only, following symlinks to files', async () => {
    await fs.mkdir(path.join(work, 'utils'));
    await touch('target/util.ts');
    await fs.symlink(path.join(work, 'target', 'util.ts'), path.join(work, 'util.js'));
    expect(await suggestSimilarFiles(path.join(work, 'util.ts'), work)).toEqual(['util.js']);
  });

  it('gives absolute paths outside workDir', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'notes.md'), '');
    expect(await suggestSimilarFiles(path.join(outside, 'note.md'), work)).toEqual([
      path.join(outside, 'notes.md'),
    ]);
  });

  it('returns [] for a missing directory or a file used as a directory', async () => {
    await touch('file.txt');
    expect(await suggestSimilarFiles(path.join(work, 'missing', 'x.ts'), work)).toEqual([]);
    expect(await suggestSimilarFiles(path.join(work, 'file.txt', 'x.ts'), work)).toEqual([]);
  });
});
