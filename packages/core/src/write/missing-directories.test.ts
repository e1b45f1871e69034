import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { localFileSystem } from '../fs/local-file-system.js';
import { missingDirectories, PathThroughFileError } from './missing-directories.js';

describe('missingDirectories', () => {
  it('lists the directories to make, shallowest first, through a link to a directory too', async ({
    workspace,
  }) => {
    await workspace.mkdir('real');
    await workspace.symlink('link', workspace.at('real'));
    expect(await missingDirectories(localFileSystem, workspace.at('a/b/c.txt'))).toEqual([
      workspace.at('a'),
      workspace.at('a/b'),
    ]);
    expect(await missingDirectories(localFileSystem, workspace.at('link/d/e.txt'))).toEqual([
      workspace.at('link/d'),
    ]);
    expect(await missingDirectories(localFileSystem, workspace.at('real/e.txt'))).toEqual([]);
  });

  it('throws PathThroughFileError at the nearest part that is there and is no directory', async ({
    workspace,
  }) => {
    await workspace.write('f.txt', 'x');
    await workspace.symlink('to-file', workspace.at('f.txt'));
    await workspace.symlink('dangling', workspace.at('nowhere'));
    for (const [path, blocking, levelsUp] of [
      ['f.txt/x.txt', 'f.txt', 1],
      ['f.txt/a/b/x.txt', 'f.txt', 3],
      ['to-file/x.txt', 'to-file', 1],
      ['dangling/a/x.txt', 'dangling', 2],
    ] as const) {
      const thrown = await missingDirectories(localFileSystem, workspace.at(path)).catch(
        (error: unknown) => error,
      );
      expect(thrown, path).toBeInstanceOf(PathThroughFileError);
      expect(thrown).toMatchObject({ blocking: workspace.at(blocking), levelsUp, code: 'ENOTDIR' });
    }
  });
});
