import type { FileSystem } from '@kimi-tools/core';
import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import { forwardingFileSystem } from './forwarding-file-system.js';

/** Stats whose modification time is `skewMs` later: what a host whose clock is `skewMs` ahead stamps. */
function skewedStats(stats: FileStats, skewMs: number): FileStats {
  return Object.create(stats, { mtimeMs: { value: stats.mtimeMs + skewMs, enumerable: true } }) as FileStats;
}

/** An open file whose `stat()` is that of a host whose clock is `skewMs` ahead. */
function skewedFile(file: OpenFile, skewMs: number): OpenFile {
  return {
    read: (...args) => file.read(...args),
    write: (...args) => file.write(...args),
    stat: async () => skewedStats(await file.stat(), skewMs),
    truncate: (length) => file.truncate(length),
    sync: () => file.sync(),
    chmod: (mode) => file.chmod(mode),
    chown: (uid, gid) => file.chown(uid, gid),
    close: () => file.close(),
  };
}

/**
 * `base` as if it were a host whose clock is `skewMs` ahead of this machine's (behind when negative): the times it
 * reports, its files' and its clock's (`now`), are moved by `skewMs`, and the times it is given (`utimes`) are taken
 * on its clock. Two machines on one loopback share a clock: this is how a test meets a remote host whose clock differs.
 */
export function onSkewedClock(base: FileSystem, skewMs: number): FileSystem {
  const forwarded = forwardingFileSystem(base);
  return {
    ...forwarded,
    stat: async (path) => skewedStats(await base.stat(path), skewMs),
    lstat: async (path) => skewedStats(await base.lstat(path), skewMs),
    open: async (path, mode) => skewedFile(await base.open(path, mode), skewMs),
    create: async (path, mode) => skewedFile(await base.create(path, mode), skewMs),
    utimes: (path, atime, mtime) => base.utimes(path, atime - skewMs / 1000, mtime - skewMs / 1000),
    now: async () => (base.now ? await base.now() : Date.now()) + skewMs,
  };
}
