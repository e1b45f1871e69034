import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { suggestSimilarFiles } from './suggest-similar.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** The kit's test, with `touch`: creates empty files in the work dir. */
const it = test.extend('touch', ({ workspace }) => async (...files: string[]) => {
  for (const file of files) await workspace.write(file);
});

describe('suggestSimilarFiles', () => {
  it('suggests the same name in another case first, relative to workDir', async ({ workspace, touch }) => {
    await touch('src/Readme.md', 'src/readme.txt', 'src/unrelated.py');
    expect(
      await suggestSimilarFiles(
        localFileSystem,
        path.join(workspace.workDir, 'src', 'README.md'),
        workspace.workDir,
      ),
    ).toEqual([path.join('src', 'Readme.md'), path.join('src', 'readme.txt')]);
  });

  it('suggests the same stem with another or no extension', async ({ workspace, touch }) => {
    await touch('app.ts', 'app', 'apple.ts');
    expect(await suggestSimilarFiles(localFileSystem, workspace.at('app.js'), workspace.workDir)).toEqual([
      'app',
      'app.ts',
    ]);
  });

  it('suggests small typos, transpositions included, best first, ties by name, at most 3', async ({
    workspace,
    touch,
  }) => {
    // distance from cofnig.ts: config.ts 1 (transposition); confi.ts, config.tsx, confog.ts 2 each
    await touch('config.ts', 'confog.ts', 'confi.ts', 'config.tsx', 'zzzzzz.ts');
    expect(await suggestSimilarFiles(localFileSystem, workspace.at('cofnig.ts'), workspace.workDir)).toEqual([
      'config.ts',
      'confi.ts',
      'config.tsx',
    ]);
  });

  it('does not suggest names that differ a lot', async ({ workspace, touch }) => {
    await touch('main.py', 'index.ts');
    expect(await suggestSimilarFiles(localFileSystem, workspace.at('server.go'), workspace.workDir)).toEqual(
      [],
    );
  });

  it('suggests files only, following symlinks to files', async ({ workspace, touch }) => {
    await workspace.mkdir('utils');
    await touch('target/util.ts');
    await workspace.symlink('util.js', path.join(workspace.workDir, 'target', 'util.ts'));
    expect(await suggestSimilarFiles(localFileSystem, workspace.at('util.ts'), workspace.workDir)).toEqual([
      'util.js',
    ]);
  });

  it('gives absolute paths outside workDir', async ({ workspace }) => {
    const outside = workspace.outsideDir;
    await fs.writeFile(path.join(outside, 'notes.md'), '');
    expect(
      await suggestSimilarFiles(localFileSystem, path.join(outside, 'note.md'), workspace.workDir),
    ).toEqual([path.join(outside, 'notes.md')]);
  });

  it('returns [] for a missing directory or a file used as a directory', async ({ workspace, touch }) => {
    await touch('file.txt');
    expect(
      await suggestSimilarFiles(
        localFileSystem,
        path.join(workspace.workDir, 'missing', 'x.ts'),
        workspace.workDir,
      ),
    ).toEqual([]);
    expect(
      await suggestSimilarFiles(
        localFileSystem,
        path.join(workspace.workDir, 'file.txt', 'x.ts'),
        workspace.workDir,
      ),
    ).toEqual([]);
  });
});
