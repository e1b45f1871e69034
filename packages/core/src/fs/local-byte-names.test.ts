import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localFileSystem, readDirectoryEntries } from './local-file-system.js';
import { lstatMany } from './lstat-many.js';

// docs/paths.md#names-that-are-not-utf-8 on the local disk: Linux names are bytes, and Node alone would read
// `inv\xff.txt`, `inv\xfe.txt` and `inv\uFFFD.txt` all as `inv\uFFFD.txt`.
const bytes = (name: string) => Buffer.from(name, 'latin1');

describe.runIf(process.platform === 'linux')('the local disk with names that are not UTF-8', () => {
  let root: string;
  const at = (name: string) => `${root}/${name}`;
  const rawAt = (name: string) => Buffer.concat([Buffer.from(`${root}/`), bytes(name)]);

  beforeEach(async () => {
    root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-bytes-')));
    await nodeFs.writeFile(rawAt('inv\xff.txt'), 'ff');
    await nodeFs.writeFile(rawAt('inv\xfe.txt'), 'fe');
    await nodeFs.writeFile(rawAt('inv\xef\xbf\xbd.txt'), 'replacement character');
  });
  afterEach(() => nodeFs.rm(root, { recursive: true, force: true }));

  const contentOf = async (file: string) => {
    const handle = await localFileSystem.open(file, 'read');
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    await handle.close();
    return buffer.toString('utf8', 0, bytesRead);
  };

  it('lists each name as its own bytes stand for it, and every name listed reads its own file', async () => {
    const names = (await localFileSystem.readdir(root)).map((entry) => entry.name).sort();
    expect(names).toEqual(['inv\udcfe.txt', 'inv\udcff.txt', 'inv\ufffd.txt']);
    expect(await Promise.all(names.map((name) => contentOf(at(name))))).toEqual([
      'fe',
      'ff',
      'replacement character',
    ]);
  });

  it('lists them so on the walk path too, with their types', async () => {
    await nodeFs.mkdir(rawAt('dir\x80'));
    const listed = await new Promise<string[]>((resolve, reject) =>
      readDirectoryEntries(localFileSystem, root, (error, entries) =>
        error
          ? reject(error as Error)
          : resolve(entries.map((entry) => `${entry.name}${entry.isDirectory() ? '/' : ''}`).sort()),
      ),
    );
    expect(listed).toEqual(['dir\udc80/', 'inv\udcfe.txt', 'inv\udcff.txt', 'inv\ufffd.txt']);
  });

  it('creates, renames and removes the file a name with byte escapes stands for', async () => {
    await (await localFileSystem.create(at('new\udcfa.txt'))).close();
    await localFileSystem.mkdir(at('sub\udcfb/deeper'), { recursive: true });
    await localFileSystem.rename(at('new\udcfa.txt'), at('sub\udcfb/moved\udcfc.txt'));
    expect((await nodeFs.readdir(rawAt('sub\xfb'), { encoding: 'buffer' })).map(String)).toEqual(
      expect.arrayContaining(['deeper', String(bytes('moved\xfc.txt'))]),
    );
    expect((await localFileSystem.stat(at('sub\udcfb/moved\udcfc.txt'))).isFile()).toBe(true);
    await localFileSystem.unlink(at('sub\udcfb/moved\udcfc.txt'));
    await expect(nodeFs.lstat(Buffer.concat([rawAt('sub\xfb'), bytes('/moved\xfc.txt')]))).rejects.toThrow();
  });

  it('gives real paths and link targets through such names with their byte escapes', async () => {
    await nodeFs.mkdir(rawAt('dir\xff'));
    await nodeFs.symlink(bytes('../inv\xfe.txt'), Buffer.concat([rawAt('dir\xff'), bytes('/link')]));
    expect(await localFileSystem.realpath(at('dir\udcff/link'))).toBe(at('inv\udcfe.txt'));
    expect(await localFileSystem.readlink(at('dir\udcff/link'))).toBe('../inv\udcfe.txt');
    const table = await lstatMany(localFileSystem, root, [
      'inv\udcff.txt',
      'dir\udcff/link',
      'inv\udcfd.txt',
    ]);
    expect([0, 1, 2].map((index) => table.at(index)?.size)).toEqual([2, 11, undefined]);
  });

  // Node writes a path given as bytes into its errors as UTF-8, each byte that is not as U+FFFD: `loop\xff` and
  // `loop\xfe` failed alike, `open '.../loop\uFFFD'`, and that name led to neither.
  it('names such a path in the errors Node rejects with as it was given, never as U+FFFD', async () => {
    await nodeFs.symlink(bytes('loop\xff'), rawAt('loop\xff'));
    await nodeFs.mkdir(rawAt('dir\xfe'));
    await nodeFs.writeFile(Buffer.concat([rawAt('dir\xfe'), bytes('/x')]), '');
    const tooLong = `${'\udcff'.repeat(300)}/x`;
    const failures: Array<[() => Promise<unknown>, string, Record<string, string>]> = [
      [
        () => localFileSystem.open(at('loop\udcff'), 'read'),
        `ELOOP: too many symbolic links encountered, open '${at('loop\udcff')}'`,
        { path: at('loop\udcff') },
      ],
      [
        () => localFileSystem.stat(at('gone\udcff')),
        `ENOENT: no such file or directory, stat '${at('gone\udcff')}'`,
        { path: at('gone\udcff') },
      ],
      [
        () => localFileSystem.mkdir(at('inv\udcff.txt')),
        `EEXIST: file already exists, mkdir '${at('inv\udcff.txt')}'`,
        { path: at('inv\udcff.txt') },
      ],
      // Both read `gone\uFFFD` in Node's words: each keeps its own name, the first as `path`, the last as `dest`.
      [
        () => localFileSystem.rename(at('gone\udcfe'), at('gone\udcff')),
        `ENOENT: no such file or directory, rename '${at('gone\udcfe')}' -> '${at('gone\udcff')}'`,
        { path: at('gone\udcfe'), dest: at('gone\udcff') },
      ],
      [
        () => localFileSystem.symlink('target', at('inv\udcfe.txt')),
        `EEXIST: file already exists, symlink 'target' -> '${at('inv\udcfe.txt')}'`,
        { path: 'target', dest: at('inv\udcfe.txt') },
      ],
      [
        () => localFileSystem.readdir(at('inv\udcff.txt')),
        `ENOTDIR: not a directory, scandir '${at('inv\udcff.txt')}'`,
        { path: at('inv\udcff.txt') },
      ],
      [
        () => localFileSystem.rmdir(at('dir\udcfe')),
        `ENOTEMPTY: directory not empty, rmdir '${at('dir\udcfe')}'`,
        { path: at('dir\udcfe') },
      ],
      [
        () => localFileSystem.readlink(at('inv\udcff.txt')),
        `EINVAL: invalid argument, readlink '${at('inv\udcff.txt')}'`,
        { path: at('inv\udcff.txt') },
      ],
      [
        () => localFileSystem.realpath(at('gone\udcff')),
        `ENOENT: no such file or directory, realpath '${at('gone\udcff')}'`,
        { path: at('gone\udcff') },
      ],
      [
        () => lstatMany(localFileSystem, root, [tooLong]),
        `ENAMETOOLONG: name too long, lstat '${at(tooLong)}'`,
        { path: at(tooLong) },
      ],
    ];
    for (const [fail, message, fields] of failures) {
      await expect(fail(), message).rejects.toMatchObject({ message, ...fields });
    }
  });

  it('refuses a lone surrogate that is no byte escape, rather than reach the U+FFFD file', async () => {
    await expect(localFileSystem.stat(at('inv\ud800.txt'))).rejects.toMatchObject({ code: 'EINVAL' });
    expect(() => localFileSystem.exec!('ls', [at('inv\udcff.txt')])).toThrow(
      expect.objectContaining({ code: 'EINVAL' }),
    );
  });
});
