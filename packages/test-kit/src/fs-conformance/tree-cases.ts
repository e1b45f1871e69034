import { expect } from 'vitest';
import { expectCode, S_IFDIR, S_IFMT, typeOf, type ConformanceCase } from './conformance-case.js';

/** Directories and the names in them: readdir, mkdir, rmdir, rename, unlink. */
export const treeCases: readonly ConformanceCase[] = [
  {
    name: 'readdir lists names with their types, a link as a link, without `.` and `..`',
    async run(context) {
      const { fs } = context;
      await context.write('file.txt', 'x');
      await context.write('with space é 日本', 'x');
      await fs.mkdir(context.at('dir'));
      await fs.symlink('dir', context.at('to-dir'));
      await fs.symlink('file.txt', context.at('to-file'));
      await fs.symlink('nowhere', context.at('dangling'));
      const listed = (await fs.readdir(context.root))
        .map((entry) => [entry.name, typeOf(entry).join()])
        .sort(([a], [b]) => (a! < b! ? -1 : 1));
      expect(listed).toEqual([
        ['dangling', 'isSymbolicLink'],
        ['dir', 'isDirectory'],
        ['file.txt', 'isFile'],
        ['to-dir', 'isSymbolicLink'],
        ['to-file', 'isSymbolicLink'],
        ['with space é 日本', 'isFile'],
      ]);
      expect(await fs.readdir(context.at('dir'))).toEqual([]);
    },
  },
  {
    name: 'with `byteNames`, a name holding byte escapes is its own file: listed as created, never as U+FFFD',
    async run(context) {
      const { fs, skip } = context;
      if (fs.capabilities.byteNames !== true) skip('the backend carries no name that is not UTF-8');
      // `inv\xff.txt`, `inv\xfe.txt` and a real `inv\uFFFD.txt`: three files a UTF-8 decoding reads alike.
      await context.write('inv\udcff.txt', 'ff');
      await context.write('inv\udcfe.txt', 'fe');
      await context.write('inv\ufffd.txt', 'replacement character');
      await fs.mkdir(context.at('dir\udc80'));
      await context.write('dir\udc80/inner', 'inner');
      const listed = (await fs.readdir(context.root)).map((entry) => entry.name).sort();
      expect(listed).toEqual(['dir\udc80', 'inv\udcfe.txt', 'inv\udcff.txt', 'inv\ufffd.txt']);
      expect((await context.read(context.at('inv\udcff.txt'))).toString()).toBe('ff');
      expect((await context.read(context.at('inv\udcfe.txt'))).toString()).toBe('fe');
      expect(await fs.realpath(context.at('dir\udc80/inner'))).toBe(context.at('dir\udc80/inner'));
    },
  },
  {
    name: 'readdir follows a link to a directory given as the path, and rejects ENOTDIR for a file, ENOENT if missing',
    async run(context) {
      const { fs } = context;
      await fs.mkdir(context.at('dir'));
      await context.write('dir/inner', 'x');
      await fs.symlink('dir', context.at('to-dir'));
      expect((await fs.readdir(context.at('to-dir'))).map((entry) => entry.name)).toEqual(['inner']);
      await expectCode(fs.readdir(context.at('dir/inner')), 'ENOTDIR');
      await expectCode(fs.readdir(context.at('missing')), 'ENOENT');
    },
  },
  {
    name: 'mkdir makes a directory with the mode it is given, and rejects EEXIST, ENOENT or ENOTDIR',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.symlink('nowhere', context.at('dangling'));
      await fs.mkdir(context.at('dir'));
      expect((await fs.stat(context.at('dir'))).mode & S_IFMT).toBe(S_IFDIR);
      await fs.mkdir(context.at('private'), { mode: 0o700 });
      expect((await fs.stat(context.at('private'))).mode & 0o7777).toBe(0o700);
      await expectCode(fs.mkdir(context.at('dir')), 'EEXIST');
      await expectCode(fs.mkdir(file), 'EEXIST');
      await expectCode(fs.mkdir(context.at('dangling')), 'EEXIST');
      await expectCode(fs.mkdir(context.at('missing/dir')), 'ENOENT');
      await expectCode(fs.mkdir(`${file}/dir`), 'ENOTDIR');
    },
  },
  {
    name: 'mkdir recursive makes the missing parents, accepts an existing directory, through links too',
    async run(context) {
      const { fs } = context;
      await fs.mkdir(context.at('a/b/c'), { recursive: true });
      expect(typeOf(await fs.stat(context.at('a/b/c')))).toEqual(['isDirectory']);
      await fs.mkdir(context.at('a/b'), { recursive: true });
      await fs.mkdir(context.root, { recursive: true });
      await fs.symlink('a', context.at('to-a'));
      await fs.mkdir(context.at('to-a/b/d/e'), { recursive: true });
      expect(typeOf(await fs.stat(context.at('a/b/d/e')))).toEqual(['isDirectory']);
    },
  },
  {
    name: 'mkdir recursive rejects EEXIST where a file is the path, ENOTDIR where a file is a parent',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await expectCode(fs.mkdir(file, { recursive: true }), 'EEXIST');
      await expectCode(fs.mkdir(`${file}/a/b`, { recursive: true }), 'ENOTDIR');
      expect(typeOf(await fs.stat(file))).toEqual(['isFile']);
    },
  },
  {
    name: 'rmdir removes an empty directory; ENOTEMPTY, ENOTDIR (a file, a link to a directory) or ENOENT otherwise',
    async run(context) {
      const { fs } = context;
      await fs.mkdir(context.at('empty'));
      await fs.mkdir(context.at('full'));
      const file = await context.write('full/file', 'x');
      await fs.symlink('empty', context.at('to-empty'));
      await expectCode(fs.rmdir(context.at('full')), 'ENOTEMPTY');
      await expectCode(fs.rmdir(file), 'ENOTDIR');
      await expectCode(fs.rmdir(context.at('to-empty')), 'ENOTDIR');
      await expectCode(fs.rmdir(context.at('missing')), 'ENOENT');
      await fs.rmdir(context.at('empty'));
      await expectCode(fs.lstat(context.at('empty')), 'ENOENT');
      expect((await context.read(file)).toString()).toBe('x');
    },
  },
  {
    name: 'unlink removes a file or a link (never its target), and rejects EISDIR for a directory, ENOENT if missing',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'kept');
      await context.write('doomed', 'x');
      await fs.symlink('file', context.at('link'));
      await fs.symlink('nowhere', context.at('dangling'));
      await fs.mkdir(context.at('dir'));
      await fs.unlink(context.at('doomed'));
      await fs.unlink(context.at('link'));
      await fs.unlink(context.at('dangling'));
      await expectCode(fs.unlink(context.at('dir')), 'EISDIR');
      await expectCode(fs.unlink(context.at('missing')), 'ENOENT');
      expect((await fs.readdir(context.root)).map((entry) => entry.name).sort()).toEqual(['dir', 'file']);
      expect((await context.read(file)).toString()).toBe('kept');
    },
  },
  {
    name: 'rename moves a file: gone from the old name, the same file at the new one',
    async run(context) {
      const { fs } = context;
      const from = await context.write('from', 'content');
      const before = await fs.stat(from);
      await fs.rename(from, context.at('to'));
      await expectCode(fs.lstat(from), 'ENOENT');
      expect((await context.read(context.at('to'))).toString()).toBe('content');
      if (fs.capabilities.inodes) expect((await fs.stat(context.at('to'))).ino).toBe(before.ino);
    },
  },
  {
    name: 'rename replaces an existing file, and a reader never sees it missing or half-written meanwhile',
    async run(context) {
      const { fs } = context;
      if (!fs.capabilities.atomicReplace) context.skip('capabilities.atomicReplace is false');
      const target = await context.write('target', 'A'.repeat(4096));
      let renaming = true;
      const reader = (async () => {
        const seen = new Set<string>();
        while (renaming) {
          try {
            const text = (await context.read(target)).toString();
            seen.add(
              text.length === 4096 && text === text[0]!.repeat(4096) ? 'whole' : `partial ${text.length}`,
            );
          } catch (error) {
            seen.add(`error ${(error as { code?: string }).code}`);
          }
        }
        return seen;
      })();
      try {
        for (let round = 0; round < 40; round++) {
          const next = await context.write(
            `next-${round}`,
            String.fromCharCode(66 + (round % 20)).repeat(4096),
          );
          await fs.rename(next, target);
        }
      } finally {
        renaming = false;
      }
      expect([...(await reader)]).toEqual(['whole']);
      expect((await context.read(target)).toString()).toBe(String.fromCharCode(66 + (39 % 20)).repeat(4096));
      expect((await fs.readdir(context.root)).map((entry) => entry.name)).toEqual(['target']);
    },
  },
  {
    name: 'rename moves a link itself, not its target',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.symlink('file', context.at('link'));
      await fs.rename(context.at('link'), context.at('moved'));
      expect(await fs.readlink(context.at('moved'))).toBe('file');
      expect(typeOf(await fs.lstat(file))).toEqual(['isFile']);
      await expectCode(fs.lstat(context.at('link')), 'ENOENT');
    },
  },
  {
    name: 'rename moves a directory with what it holds, and replaces an empty directory',
    async run(context) {
      const { fs } = context;
      await fs.mkdir(context.at('dir/sub'), { recursive: true });
      await context.write('dir/sub/file', 'deep');
      await fs.rename(context.at('dir'), context.at('moved'));
      expect((await context.read(context.at('moved/sub/file'))).toString()).toBe('deep');
      await fs.mkdir(context.at('empty'));
      await fs.rename(context.at('moved'), context.at('empty'));
      expect((await context.read(context.at('empty/sub/file'))).toString()).toBe('deep');
      expect((await fs.readdir(context.root)).map((entry) => entry.name)).toEqual(['empty']);
    },
  },
  {
    name: 'rename onto itself changes nothing',
    async run(context) {
      const file = await context.write('file', 'same');
      await context.fs.rename(file, file);
      expect((await context.read(file)).toString()).toBe('same');
    },
  },
  {
    name: 'rename rejects ENOENT, EISDIR (file onto directory), ENOTDIR (directory onto file), ENOTEMPTY and EINVAL',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'x');
      await fs.mkdir(context.at('dir'));
      await fs.mkdir(context.at('full'));
      await context.write('full/inner', 'y');
      await expectCode(fs.rename(context.at('missing'), context.at('new')), 'ENOENT');
      await expectCode(fs.rename(file, context.at('missing/new')), 'ENOENT');
      await expectCode(fs.rename(file, context.at('dir')), 'EISDIR');
      await expectCode(fs.rename(context.at('dir'), file), 'ENOTDIR');
      await expectCode(fs.rename(context.at('dir'), context.at('full')), 'ENOTEMPTY');
      await expectCode(fs.rename(context.at('full'), context.at('full/inside')), 'EINVAL');
      expect((await fs.readdir(context.root)).map((entry) => entry.name).sort()).toEqual([
        'dir',
        'file',
        'full',
      ]);
    },
  },
  {
    name: 'a name of 255 bytes is like any other; one over 255 bytes, or a path of 1 MiB, is ENAMETOOLONG, for every operation',
    async run(context) {
      const { fs } = context;
      // 'é' is two bytes: 128 characters make 256 bytes, over the limit with half as many characters.
      const longest = 'x'.repeat(255);
      // A path of 1 MiB is over the limit of SFTP messages too: the backend must refuse it and stay usable.
      const over = [
        context.at('x'.repeat(256)),
        context.at(`${'é'.repeat(128)}/a`),
        context.at('y/'.repeat(1 << 19)),
      ];
      const file = await context.write(longest, 'x');
      expect((await fs.stat(file)).size).toBe(1);
      for (const path of over) {
        await expectCode(fs.create(path), 'ENAMETOOLONG');
        await expectCode(fs.mkdir(path), 'ENAMETOOLONG');
        await expectCode(fs.stat(path), 'ENAMETOOLONG');
        await expectCode(fs.symlink('x', path), 'ENAMETOOLONG');
        await expectCode(fs.rename(file, path), 'ENAMETOOLONG');
      }
      expect((await fs.readdir(context.root)).map((entry) => entry.name)).toEqual([longest]);
    },
  },
  {
    name: 'with `byteNames`, a name counts the bytes it stands for: a byte escape is one byte, in a name, a path and a link',
    async run(context) {
      const { fs, skip } = context;
      if (fs.capabilities.byteNames !== true) skip('the backend carries no name that is not UTF-8');
      // 254 bytes and the byte 0xFF: 255 bytes on a disk, where the UTF-8 of U+DCFF would count 257.
      const longest = `${'x'.repeat(254)}\udcff`;
      const file = await context.write(longest, 'x');
      expect((await fs.stat(file)).size).toBe(1);
      await expectCode(fs.create(context.at(`${'x'.repeat(255)}\udcff`)), 'ENAMETOOLONG');
      await expectCode(fs.mkdir(context.at(`\udcff${'x'.repeat(255)}`)), 'ENAMETOOLONG');
      // A link's size is its target's length in bytes, as readlink gives them back.
      await fs.symlink('inv\udcff.txt', context.at('link'));
      expect((await fs.lstat(context.at('link'))).size).toBe(8);
      expect(await fs.readlink(context.at('link'))).toBe('inv\udcff.txt');
      expect((await fs.readdir(context.root)).map((entry) => entry.name).sort()).toEqual(['link', longest]);
    },
  },
  {
    name: 'syncDirectory resolves for a directory',
    async run(context) {
      await context.write('file', 'x');
      await context.fs.syncDirectory(context.root);
    },
  },
];
