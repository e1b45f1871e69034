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

  it('sets the modes asked for exactly, whatever the umask, on the directories it made and no other', async ({
    workspace,
  }) => {
    await fs.mkdir(workspace.at('theirs'), { mode: 0o755 });
    const modes = new Map([
      [workspace.at('theirs'), 0o700],
      [workspace.at('theirs/a'), 0o777],
      [workspace.at('theirs/a/b'), undefined],
    ]);
    const previous = process.umask(0o022);
    try {
      await createDirectories(localFileSystem, [...modes.keys()], (directory) => modes.get(directory));
    } finally {
      process.umask(previous);
    }
    const modeOf = async (relative: string) => (await fs.stat(workspace.at(relative))).mode & 0o777;
    expect([await modeOf('theirs'), await modeOf('theirs/a'), await modeOf('theirs/a/b')]).toEqual([
      0o755, 0o777, 0o755,
    ]);
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
