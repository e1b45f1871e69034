import { promises as fs } from 'node:fs';
import { forwardingFileSystem, test as it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createDirectories, removeCreatedDirectories } from './created-directories.js';
import { localFileSystem } from '../fs/local-file-system.js';

const lost = (directory: string) =>
  Object.assign(new Error(`ECONNRESET: connection lost, mkdir '${directory}'`), { code: 'ECONNRESET' });

describe('createDirectories', () => {
  it('returns the directories it made, which removeCreatedDirectories takes away again', async ({
    workspace,
  }) => {
    await fs.mkdir(workspace.at('there'));
    const wanted = [workspace.at('there'), workspace.at('there/a'), workspace.at('there/a/b')];
    const created = await createDirectories(localFileSystem, wanted);
    expect(created).toEqual(wanted.slice(1));
    await removeCreatedDirectories(localFileSystem, created);
    expect(await fs.readdir(workspace.workDir)).toEqual(['there']);
  });

  it('removes a directory it made whose answer a dropped connection lost, with those before it', async ({
    workspace,
  }) => {
    const last = workspace.at('a/b');
    const dropping = {
      ...forwardingFileSystem(localFileSystem),
      async mkdir(directory: string) {
        await localFileSystem.mkdir(directory);
        if (directory === last) throw lost(directory);
      },
    };
    await expect(createDirectories(dropping, [workspace.at('a'), last])).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('leaves alone a directory whose mkdir lost its answer but that someone else has filled', async ({
    workspace,
  }) => {
    const directory = workspace.at('a');
    const dropping = {
      ...forwardingFileSystem(localFileSystem),
      async mkdir(path: string) {
        await localFileSystem.mkdir(path);
        await fs.writeFile(`${path}/theirs.txt`, 'theirs');
        throw lost(path);
      },
    };
    await expect(createDirectories(dropping, [directory])).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await fs.readdir(directory)).toEqual(['theirs.txt']);
  });
});
