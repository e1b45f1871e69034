import { promises as fs, constants as fsConstants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { resolveLinkTarget } from './resolve-link-target.js';
import { atomicTempName } from './temp-files.js';
import { notRegularFileErrnoText } from '../errors.js';
import { errnoError } from '../fs/errno.js';
import { statIfExists } from '../fs/stat-if-exists.js';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Checked before the temp file is created and again just before it replaces the target. */
  signal?: AbortSignal;
  /**
   * Runs once the new content is ready, right before it replaces the target (or, for a file with several hard
   * links, before the target is overwritten); throwing stops the write and leaves the target untouched.
   */
  beforeCommit?: () => Promise<void>;
}

// Makes the rename itself durable; not every platform can open or sync a directory, which is fine.
async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch {
    // Best effort only.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

// Writes data[start, end) at `position`, looping over short writes.
async function writeRange(
  handle: FileHandle,
  data: Uint8Array,
  start: number,
  end: number,
  position: number,
) {
  let offset = start;
  while (offset < end) {
    const { bytesWritten } = await handle.write(data, offset, end - offset, position + (offset - start));
    offset += bytesWritten;
  }
}

// Several names share this inode: renaming would split them, so the shared content is rewritten in place. The part
// beyond the old end is written first: if the disk is full, that fails before any old byte was overwritten, and
// the file is cut back to its old size.
async function overwriteInPlace(
  filePath: string,
  data: Uint8Array,
  oldSize: number,
  options: AtomicWriteOptions,
): Promise<void> {
  await options.beforeCommit?.();
  const handle = await fs.open(filePath, 'r+');
  try {
    if (data.length > oldSize) {
      try {
        await writeRange(handle, data, oldSize, data.length, oldSize);
      } catch (error) {
        await handle.truncate(oldSize).catch(() => undefined);
        throw error;
      }
    }
    await writeRange(handle, data, 0, Math.min(oldSize, data.length), 0);
    await handle.truncate(data.length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function replaceThroughTemp(
  filePath: string,
  data: Uint8Array,
  existing: Stats | undefined,
  options: AtomicWriteOptions,
) {
  const directory = path.dirname(filePath);
  const tempPath = path.join(directory, atomicTempName(path.basename(filePath)));
  const mode = existing ? existing.mode & 0o7777 : 0o666;
  const flags = fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY;
  const handle = await fs.open(tempPath, flags, mode);
  let renamed = false;
  try {
    try {
      if (existing) {
        // The umask trimmed the mode at creation; give the new file exactly the old bits and, when we may, owner.
        await handle.chmod(mode);
        if (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.()) {
          await handle.chown(existing.uid, existing.gid).catch(() => undefined);
        }
      }
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    options.signal?.throwIfAborted();
    await options.beforeCommit?.();
    await fs.rename(tempPath, filePath);
    renamed = true;
  } finally {
    if (!renamed) await fs.unlink(tempPath).catch(() => undefined);
  }
  await syncDirectory(directory);
}

/**
 * Writes `data` to `filePath` so that a crash leaves either the old or the new content, never a mix (docs/writing.md):
 * a temp file in the same directory (exclusive create, unpredictable name) is written, flushed and renamed over the
 * target, then the directory is flushed where the platform allows. The target's permission bits are kept. A symlink
 * stays a link: the file at the end of its chain is written. A file with several hard links is rewritten in place so
 * the links stay shared: a full disk still leaves it untouched (the growth is written first), but a crash midway
 * does not. On failure the temp file is removed and the target is untouched.
 */
export async function writeFileAtomic(
  filePath: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  options.signal?.throwIfAborted();
  const target = await resolveLinkTarget(filePath);
  const existing = await statIfExists(target);
  if (existing && !existing.isFile()) throw errnoError('EISDIR', notRegularFileErrnoText(filePath));
  if (existing && existing.nlink > 1) {
    await overwriteInPlace(target, data, existing.size, options);
    return;
  }
  await replaceThroughTemp(target, data, existing, options);
}
