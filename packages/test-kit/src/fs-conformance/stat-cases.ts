import type { FileStats, FileSystemCapabilities } from '@kimi-tools/core/fs';
import { expect } from 'vitest';
import {
  expectCode,
  S_IFDIR,
  S_IFLNK,
  S_IFMT,
  S_IFREG,
  typeOf,
  type CaseContext,
  type ConformanceCase,
} from './conformance-case.js';

/**
 * The fields a backend cannot know are absent, never 0, and present exactly when its capabilities say it knows them:
 * core takes an absent field as "unknown" and a 0 as a value, so a backend that fills one with 0 breaks staleness.
 */
export function expectFieldsAsCapabilitiesSay(stats: FileStats, capabilities: FileSystemCapabilities): void {
  expect(Number.isSafeInteger(stats.size) && stats.size >= 0).toBe(true);
  expect(Number.isSafeInteger(stats.mode)).toBe(true);
  expect(Number.isFinite(stats.mtimeMs) && stats.mtimeMs > 0).toBe(true);
  if (capabilities.inodes) {
    expect(typeof stats.ino).toBe('bigint');
    expect(typeof stats.dev).toBe('bigint');
    expect(stats.ino).not.toBe(0n);
  } else {
    expect(stats.ino).toBeUndefined();
    expect(stats.dev).toBeUndefined();
  }
  if (capabilities.ctime) {
    expect(typeof stats.ctimeNs).toBe('bigint');
    expect(stats.ctimeNs! > 0n).toBe(true);
  } else {
    expect(stats.ctimeNs).toBeUndefined();
  }
  if (capabilities.linkCounts) {
    expect(Number.isSafeInteger(stats.nlink) && stats.nlink! >= 1).toBe(true);
  } else {
    expect(stats.nlink).toBeUndefined();
  }
  if (capabilities.timeResolutionMs < 1) {
    expect(typeof stats.mtimeNs).toBe('bigint');
    // The two forms of one time agree (the number may have lost the last nanoseconds).
    expect(Math.abs(Number(stats.mtimeNs) / 1e6 - stats.mtimeMs)).toBeLessThan(1);
  } else {
    expect(stats.mtimeNs).toBeUndefined();
  }
  for (const id of [stats.uid, stats.gid]) {
    if (id !== undefined) expect(Number.isSafeInteger(id) && id >= 0).toBe(true);
  }
}

async function fileAndLink(context: CaseContext): Promise<{ file: string; link: string }> {
  const file = await context.write('file.txt', 'twelve bytes');
  const link = context.at('link');
  await context.fs.symlink('file.txt', link);
  return { file, link };
}

/** What a backend says of itself, and of the files it holds. */
export const statCases: readonly ConformanceCase[] = [
  {
    name: 'names itself, its platform and its home, and states every capability',
    async run({ fs }) {
      expect(typeof fs.name === 'string' && fs.name.length > 0).toBe(true);
      expect(typeof fs.platform).toBe('string');
      expect(fs.homeDir.startsWith('/') || fs.platform === 'win32').toBe(true);
      // `requestsInOrder` and `byteNames` are optional: a backend that does not carry out operations in the order
      // called, or that carries no name that is not UTF-8, leaves them out.
      const { timeResolutionMs, requestsInOrder = false, byteNames = false, ...flags } = fs.capabilities;
      expect(typeof requestsInOrder).toBe('boolean');
      expect(typeof byteNames).toBe('boolean');
      expect(Object.keys(flags).sort()).toEqual(
        [
          'atomicReplace',
          'exclusiveCreate',
          'exec',
          'fsync',
          'inodes',
          'ctime',
          'linkCounts',
          'localProcesses',
        ].sort(),
      );
      for (const flag of Object.values(flags)) expect(typeof flag).toBe('boolean');
      expect(Number.isFinite(timeResolutionMs) && timeResolutionMs > 0).toBe(true);
    },
  },
  {
    name: 'stat reports size and type of a file, a directory and, through a link, its target',
    async run(context) {
      const { fs } = context;
      const { file, link } = await fileAndLink(context);
      const fileStats = await fs.stat(file);
      expect(typeOf(fileStats)).toEqual(['isFile']);
      expect(fileStats.size).toBe(12);
      expect(fileStats.mode & S_IFMT).toBe(S_IFREG);
      const linkStats = await fs.stat(link);
      expect(typeOf(linkStats)).toEqual(['isFile']);
      expect(linkStats.size).toBe(12);
      const dirStats = await fs.stat(context.root);
      expect(typeOf(dirStats)).toEqual(['isDirectory']);
      expect(dirStats.mode & S_IFMT).toBe(S_IFDIR);
    },
  },
  {
    name: 'lstat reports a symbolic link itself, dangling or not, and follows the links of its parents',
    async run(context) {
      const { fs } = context;
      const { link } = await fileAndLink(context);
      const linkStats = await fs.lstat(link);
      expect(typeOf(linkStats)).toEqual(['isSymbolicLink']);
      expect(linkStats.mode & S_IFMT).toBe(S_IFLNK);
      await fs.symlink('nowhere', context.at('dangling'));
      expect(typeOf(await fs.lstat(context.at('dangling')))).toEqual(['isSymbolicLink']);
      await fs.mkdir(context.at('dir'));
      await fs.symlink('dir', context.at('dir-link'));
      await fs.symlink('../file.txt', context.at('dir/inner-link'));
      expect(typeOf(await fs.lstat(context.at('dir-link/inner-link')))).toEqual(['isSymbolicLink']);
      expect(typeOf(await fs.lstat(context.at('dir-link')))).toEqual(['isSymbolicLink']);
    },
  },
  {
    name: 'stat and lstat reject ENOENT for a missing path or a dangling link, ENOTDIR through a file',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file.txt', 'x');
      await fs.symlink('nowhere', context.at('dangling'));
      await expectCode(fs.stat(context.at('missing')), 'ENOENT');
      await expectCode(fs.lstat(context.at('missing')), 'ENOENT');
      await expectCode(fs.stat(context.at('missing/deeper')), 'ENOENT');
      await expectCode(fs.stat(context.at('dangling')), 'ENOENT');
      await expectCode(fs.stat(`${file}/inside`), 'ENOTDIR');
      await expectCode(fs.lstat(`${file}/inside`), 'ENOTDIR');
    },
  },
  {
    name: 'a field the backend cannot know is absent, never 0: exactly as its capabilities say',
    async run(context) {
      const { fs } = context;
      const { file, link } = await fileAndLink(context);
      await fs.utimes(file, 1_000_000_000, 1_000_000_000);
      const handle = await fs.open(file, 'read');
      try {
        for (const stats of [
          await fs.stat(file),
          await fs.lstat(link),
          await fs.stat(context.root),
          await handle.stat(),
        ]) {
          expectFieldsAsCapabilitiesSay(stats, fs.capabilities);
        }
      } finally {
        await handle.close();
      }
    },
  },
  {
    name: 'inode numbers: two files differ, a renamed file keeps its own, one device for the whole directory',
    async run(context) {
      const { fs } = context;
      if (!fs.capabilities.inodes) context.skip('capabilities.inodes is false');
      const a = await context.write('a', 'a');
      const b = await context.write('b', 'b');
      const [statsA, statsB] = [await fs.stat(a), await fs.stat(b)];
      expect(statsA.ino).not.toBe(statsB.ino);
      expect(statsA.dev).toBe(statsB.dev);
      expect(statsA.dev).toBe((await fs.stat(context.root)).dev);
      await fs.rename(a, context.at('renamed'));
      expect((await fs.stat(context.at('renamed'))).ino).toBe(statsA.ino);
    },
  },
  {
    name: 'names are case-sensitive on a linux backend',
    async run(context) {
      if (context.fs.platform !== 'linux') context.skip(`platform is ${context.fs.platform}`);
      await context.write('Name.txt', 'upper');
      await context.write('name.txt', 'lower');
      expect((await context.read(context.at('Name.txt'))).toString()).toBe('upper');
      expect((await context.read(context.at('name.txt'))).toString()).toBe('lower');
    },
  },
];
