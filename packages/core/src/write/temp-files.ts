import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isLockFileName } from './file-lock.js';

// `.<name>.kimi-tmp-<12 hex>`: hidden, tied to the file it replaces, and recognisable after a crash.
const TEMP_MARKER = '.kimi-tmp-';
const TEMP_NAME = /^\..*\.kimi-tmp-[0-9a-f]{12}$/s;
// File names are limited to 255 bytes on common file systems; keep the temp name within that.
const MAX_NAME_BYTES = 255;
const SUFFIX_BYTES = 1 + TEMP_MARKER.length + 12;

function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let result = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > maxBytes) break;
    result += char;
    used += size;
  }
  return result;
}

/** A fresh, unpredictable temp file name for replacing `targetName` in the same directory. */
export function atomicTempName(targetName: string): string {
  const stem = truncateUtf8(targetName, MAX_NAME_BYTES - SUFFIX_BYTES);
  return `.${stem}${TEMP_MARKER}${randomBytes(6).toString('hex')}`;
}

/** Whether `fileName` is a temp file left by {@link writeFileAtomic} (e.g. after a crash). */
export function isAtomicTempName(fileName: string): boolean {
  return TEMP_NAME.test(fileName);
}

/** Options of {@link cleanupStaleTempFiles}. */
export interface CleanupOptions {
  /** Only temp files not modified for this long are removed, so a write in progress elsewhere is left alone (default 60 000). */
  olderThanMs?: number;
}

/**
 * Removes temp files that an interrupted {@link writeFileAtomic} left in `directory`, and lock files a crashed writer
 * left (not recursive). Returns the paths removed. A directory that does not exist has nothing to clean.
 */
export async function cleanupStaleTempFiles(
  directory: string,
  options: CleanupOptions = {},
): Promise<string[]> {
  const olderThanMs = options.olderThanMs ?? 60_000;
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  const now = Date.now();
  for (const name of names.filter((entry) => isAtomicTempName(entry) || isLockFileName(entry))) {
    const filePath = path.join(directory, name);
    try {
      const stats = await fs.lstat(filePath);
      if (!stats.isFile() || now - stats.mtimeMs < olderThanMs) continue;
      await fs.unlink(filePath);
      removed.push(filePath);
    } catch (error) {
      // Someone else removed or renamed it meanwhile: nothing left to clean.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
