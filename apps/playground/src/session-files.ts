import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import { readRegularFile } from '@kimi-tools/core/toolkit';

// What the playground does to files itself (not through a tool), on whichever file system the session runs on: the
// local disk, memory or a host over SSH.

/** `path.join` in the syntax of `fs`'s paths (POSIX but for a Windows disk). */
export function joinOn(fs: FileSystem, ...parts: string[]): string {
  return (fs.platform === 'win32' ? path.win32 : path.posix).join(...parts);
}

/** The bytes of the regular file at `file`, or `undefined` when nothing is there. */
export async function readBytesIfThere(fs: FileSystem, file: string): Promise<Buffer | undefined> {
  const read = await readRegularFile(fs, file);
  if (read === 'missing') return undefined;
  if (read === 'not-a-file') throw Object.assign(new Error(`${file} is not a file`), { code: 'EISDIR' });
  return read.bytes;
}

/** Makes a new file at `file` holding `bytes`. */
export async function writeNewFile(
  fs: FileSystem,
  file: string,
  bytes: Uint8Array,
  mode?: number,
): Promise<void> {
  const handle = await fs.create(file, mode);
  try {
    for (let at = 0; at < bytes.length;) {
      at += (await handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/** Makes a new directory `{parent}/{prefix}XXXXXX` of the owner's alone, as `mkdtemp` does; its real path. */
export async function makeTempDirectory(fs: FileSystem, parent: string, prefix: string): Promise<string> {
  for (;;) {
    const dir = joinOn(fs, parent, `${prefix}${randomBytes(4).toString('base64url').slice(0, 6)}`);
    try {
      await fs.mkdir(dir, { mode: 0o700 });
      return await fs.realpath(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Removes `path` and everything under it (links removed, never followed); nothing there is fine. */
export async function removeTree(fs: FileSystem, target: string): Promise<void> {
  let stats;
  try {
    stats = await fs.lstat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isDirectory()) return fs.unlink(target);
  for (const entry of await fs.readdir(target)) await removeTree(fs, joinOn(fs, target, entry.name));
  await fs.rmdir(target);
}
