import type { FileSystem } from '@kimi-tools/core';
import type { FileStats } from '@kimi-tools/core/fs';
import {
  createContentHasher,
  IGNORE_FILE_NAMES,
  ignoredEntryTest,
  isAtomicTempName,
  isLockFileName,
  levelForDirectory,
  loadIgnoreRules,
  readHandleUpTo,
  type IgnoreLevel,
} from '@kimi-tools/core/toolkit';
import { sameStamp, type EntryStamp, type Manifest, type ManifestEntry } from './manifest.js';

/** Files hashed at once. */
const HASH_CONCURRENCY = 16;

/**
 * A file modified this close before the previous scan began may have changed again within the same tick of the
 * file system's clock after it was hashed (Linux stamps files with a clock of a few milliseconds' grain): it is
 * hashed again rather than trusted by its stamp.
 */
const RACY_WINDOW_MS = 1000;

/** What a scan needs. */
export interface ScanRequest {
  fs: FileSystem;
  /** The workspace root, a real absolute path. */
  root: string;
  /** The last checkpoint's manifest: files whose stamp did not move keep its hashes. */
  previous: Manifest | undefined;
  /** Files bigger than this are recorded as not restorable. */
  maxFileBytes: number;
  /** Called with the bytes of every file hashed (the store keeps them); `undefined`: nothing is stored. */
  store?: (bytes: Uint8Array, hash: string) => Promise<void>;
}

interface Visit {
  relativeDir: string;
  absoluteDir: string;
  levels: readonly IgnoreLevel[];
}

/**
 * Every path of the workspace the ignore rules keep (`.gitignore` and `.ignore` of each directory, version-control
 * folders and `node_modules`, as the search tools apply them), read through the runtime's file system: files with
 * their content hash and stamp, symbolic links with their target text (never followed), directories with their
 * mode. A file whose stamp equals the previous checkpoint's keeps its hash; the others are read and hashed.
 */
export async function scanWorkspace(request: ScanRequest): Promise<Manifest> {
  const scannedAtMs = Date.now();
  const entries: Record<string, ManifestEntry> = {};
  const toHash: Array<{ relative: string; absolute: string; stats: FileStats }> = [];
  const paths = { join: (dir: string, name: string) => (dir.endsWith('/') ? dir + name : `${dir}/${name}`) };
  let queue: Visit[] = [{ relativeDir: '', absoluteDir: request.root, levels: [] }];
  while (queue.length > 0) {
    const next: Visit[] = [];
    await Promise.all(
      queue.map(async (visit) => {
        const dirEntries = await request.fs.readdir(visit.absoluteDir);
        const levels = await withOwnRules(
          request.fs,
          visit,
          dirEntries.map((entry) => entry.name),
        );
        const ignored = ignoredEntryTest(visit.relativeDir, levels);
        await Promise.all(
          dirEntries.map(async (entry) => {
            const name = entry.name;
            if (isAtomicTempName(name) || isLockFileName(name)) return;
            const isDirectory = entry.isDirectory();
            if (ignored(name, isDirectory)) return;
            const relative = visit.relativeDir === '' ? name : `${visit.relativeDir}/${name}`;
            const absolute = paths.join(visit.absoluteDir, name);
            if (entry.isSymbolicLink()) {
              entries[relative] = { type: 'link', target: await request.fs.readlink(absolute) };
            } else if (isDirectory) {
              const stats = await request.fs.lstat(absolute);
              entries[relative] = { type: 'dir', mode: stats.mode & 0o7777 };
              next.push({ relativeDir: relative, absoluteDir: absolute, levels });
            } else if (entry.isFile()) {
              const stats = await request.fs.lstat(absolute);
              const known = reusable(request.previous, relative, stats);
              if (known) entries[relative] = known;
              else if (stats.size > request.maxFileBytes)
                entries[relative] = { type: 'large', ...stampOf(stats) };
              else toHash.push({ relative, absolute, stats });
            }
          }),
        );
      }),
    );
    queue = next;
  }
  for (let start = 0; start < toHash.length; start += HASH_CONCURRENCY) {
    await Promise.all(
      toHash.slice(start, start + HASH_CONCURRENCY).map(async (file) => {
        entries[file.relative] = await hashEntry(request, file.absolute);
      }),
    );
  }
  const sorted: Record<string, ManifestEntry> = {};
  for (const key of Object.keys(entries).sort()) sorted[key] = entries[key]!;
  return { version: 1, entries: sorted, scannedAtMs };
}

/** The previous entry of `relative` when the file's stamp has not moved and it was not modified near that scan. */
function reusable(
  previous: Manifest | undefined,
  relative: string,
  stats: FileStats,
): ManifestEntry | undefined {
  const entry = previous?.entries[relative];
  if (entry === undefined || (entry.type !== 'file' && entry.type !== 'large')) return undefined;
  if (entry.mtimeMs >= previous!.scannedAtMs - RACY_WINDOW_MS) return undefined;
  return sameStamp(entry, stampOf(stats)) ? entry : undefined;
}

/** The stamp of a file, with the fields its backend knows. */
function stampOf(stats: FileStats): EntryStamp {
  const stamp: EntryStamp = { size: stats.size, mode: stats.mode & 0o7777, mtimeMs: stats.mtimeMs };
  if (stats.mtimeNs !== undefined) stamp.mtimeNs = stats.mtimeNs.toString();
  if (stats.ctimeNs !== undefined) stamp.ctimeNs = stats.ctimeNs.toString();
  if (stats.ino !== undefined) stamp.ino = stats.ino.toString();
  if (stats.dev !== undefined) stamp.dev = stats.dev.toString();
  return stamp;
}

/**
 * Reads and hashes one file on its open descriptor. The stamp is taken before the bytes are read, so a change made
 * meanwhile leaves a stamp older than the file and the next scan reads it again.
 */
async function hashEntry(request: ScanRequest, absolute: string): Promise<ManifestEntry> {
  const handle = await request.fs.open(absolute, 'read');
  try {
    const stats = await handle.stat();
    if (stats.size > request.maxFileBytes) return { type: 'large', ...stampOf(stats) };
    const bytes = await readHandleUpTo(handle, Number.MAX_SAFE_INTEGER, stats.size + 1);
    const hash = createContentHasher().update(bytes).digest('hex');
    await request.store?.(bytes, hash);
    return { type: 'file', hash, ...stampOf(stats) };
  } finally {
    await handle.close();
  }
}

/** The ignore levels of a directory: its parent's, and its own ignore files' rules when it has any. */
async function withOwnRules(
  fs: FileSystem,
  visit: Visit,
  names: readonly string[],
): Promise<readonly IgnoreLevel[]> {
  const present = IGNORE_FILE_NAMES.filter((name) => names.includes(name));
  if (present.length === 0) return visit.levels;
  const rules = await loadIgnoreRules(fs, visit.absoluteDir, present);
  return rules === null ? visit.levels : [...visit.levels, levelForDirectory(rules, visit.relativeDir)];
}
