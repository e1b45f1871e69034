import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core';
import { readHandleUpTo } from '@kimi-tools/core/toolkit';

// What a shell or an editor does to files, through any backend: the test kit's workspace helpers use these, so a test
// sets up and inspects its files on whatever backend the run is on.

/** The error code of a failed file operation. */
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Writes `bytes` at `file` as `fs.writeFile` does: a new file (mode `0o666` less the umask), or an existing one
 * rewritten in place (same inode, links followed). The parent directory must exist.
 */
export async function writeBytes(fs: FileSystem, file: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.create(file).catch(async (error: unknown) => {
    if (codeOf(error) !== 'EEXIST') throw error;
    const existing = await fs.open(file, 'update');
    await existing.truncate(0);
    return existing;
  });
  try {
    for (let at = 0; at < bytes.length;) {
      at += (await handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/** Appends `bytes` to `file` as `>>` does: at its end, creating it when it is missing. */
export async function appendBytes(fs: FileSystem, file: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.open(file, 'update').catch((error: unknown) => {
    if (codeOf(error) !== 'ENOENT') throw error;
    return fs.create(file);
  });
  try {
    const { size } = await handle.stat();
    for (let at = 0; at < bytes.length;) {
      at += (await handle.write(bytes, at, bytes.length - at, size + at)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/** The whole content of a file (links followed). */
export async function readBytes(fs: FileSystem, file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'read');
  try {
    const { size } = await handle.stat();
    return await readHandleUpTo(handle, Number.MAX_SAFE_INTEGER, size + 1);
  } finally {
    await handle.close();
  }
}

/** Whether anything (a dangling symlink too) is at `file`. */
export async function exists(fs: FileSystem, file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** Removes a file, a link or a whole directory tree (`rm -rf`); nothing there is fine. */
export async function removeTree(fs: FileSystem, target: string): Promise<void> {
  let stats;
  try {
    stats = await fs.lstat(target);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  if (!stats.isDirectory()) return fs.unlink(target);
  for (const entry of await fs.readdir(target)) await removeTree(fs, path.posix.join(target, entry.name));
  await fs.rmdir(target);
}
