import { promises as fs, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { noSavedVersionMessage, notRegularFileErrnoText } from '../errors.js';
import { errnoError } from '../fs/errno.js';
import type { FileHandle } from 'node:fs/promises';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { openRegularFile } from '../fs/regular-file.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import { commitFileSet, readPreviousState, type CommitStep } from '../write/commit-file-set.js';
import type { FileSystem } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** One saved version of a file: its content before a change. */
export interface HistoryEntry {
  /** Real path of the file. */
  path: string;
  /** 1-based, per path, increasing with every save. */
  version: number;
  /** When the version was saved. */
  time: Date;
  /** Size of the saved content in bytes, or `null` when the file did not exist before the change. */
  size: number | null;
}

/** Options of {@link FileHistory}. */
export interface FileHistoryOptions {
  /** Keep saved bytes in files under this directory instead of in memory (created when first needed). */
  directory?: string;
  /** Versions kept per path; older ones are dropped first (default 50). */
  maxVersionsPerFile?: number;
  /** Total bytes kept over all versions; the oldest versions are dropped first (default 256 MiB). */
  maxBytes?: number;
}

interface StoredVersion {
  entry: HistoryEntry;
  /** The unit of change it belongs to: one per single-file change, one for all files of a patch. */
  unit: number;
  /** In-memory content, when no directory is used. */
  bytes?: Uint8Array;
  /** Spill file, when a directory is used. */
  file?: string;
}

/**
 * Previous versions of the files the tools changed, for undo (docs/writing.md). The caller creates one per session and
 * passes it to `createRuntime({ history })`. A version larger than `maxBytes` is not kept.
 */
export class FileHistory {
  private readonly directory: string | undefined;
  private readonly maxVersionsPerFile: number;
  private readonly maxBytes: number;
  // Every version in save order (oldest first): eviction and list() both follow this order.
  private readonly versions: StoredVersion[] = [];
  private readonly lastVersion = new Map<string, number>();
  private storedBytes = 0;
  private spillCounter = 0;
  private unitCounter = 0;

  constructor(options: FileHistoryOptions = {}) {
    this.directory = options.directory === undefined ? undefined : path.resolve(options.directory);
    this.maxVersionsPerFile = options.maxVersionsPerFile ?? 50;
    this.maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  }

  /**
   * Saves the content `realPath` has before a change: its bytes, or `null` when it does not exist yet.
   * Returns the new entry, or `undefined` when the content alone exceeds `maxBytes` and was not kept.
   */
  async save(realPath: string, bytes: Uint8Array | null): Promise<HistoryEntry | undefined> {
    return this.saveIn(++this.unitCounter, realPath, bytes);
  }

  /**
   * Saves the content several files have before one change to them all (a patch): one unit, which {@link undo}
   * restores as a whole. Returns the entries kept.
   */
  async saveUnit(files: readonly { path: string; bytes: Uint8Array | null }[]): Promise<HistoryEntry[]> {
    const unit = ++this.unitCounter;
    const kept: HistoryEntry[] = [];
    for (const file of files) {
      const entry = await this.saveIn(unit, file.path, file.bytes);
      if (entry) kept.push(entry);
    }
    return kept;
  }

  private async saveIn(
    unit: number,
    realPath: string,
    bytes: Uint8Array | null,
  ): Promise<HistoryEntry | undefined> {
    return this.store(unit, realPath, bytes === null ? null : bytes.length, async (stored) => {
      if (bytes && stored.file) await fs.writeFile(stored.file, bytes);
      // A copy: the caller's buffer may be reused or changed after this call.
      else if (bytes) stored.bytes = new Uint8Array(bytes);
    });
  }

  /**
   * Saves the content of the file open on `handle` (its first `size` bytes), for a file too large to hold in memory:
   * with a `directory` it is copied there chunk by chunk; without one it is read into memory, as `save` keeps it.
   * A file over `maxBytes` is not kept (`undefined`), whatever its size.
   */
  async saveFromHandle(
    realPath: string,
    handle: FileHandle,
    size: number,
  ): Promise<HistoryEntry | undefined> {
    return this.store(++this.unitCounter, realPath, size, async (stored) => {
      if (stored.file) await copyHandleToFile(handle, size, stored.file);
      else stored.bytes = await readHandleUpTo(handle, size);
    });
  }

  // Shared by both saves: the size check, the entry, the spill file name, then eviction.
  private async store(
    unit: number,
    realPath: string,
    size: number | null,
    keep: (stored: StoredVersion) => Promise<void>,
  ): Promise<HistoryEntry | undefined> {
    if ((size ?? 0) > this.maxBytes) return undefined;
    const version = (this.lastVersion.get(realPath) ?? 0) + 1;
    const entry: HistoryEntry = { path: realPath, version, time: new Date(), size };
    const stored: StoredVersion = { entry, unit };
    if (size !== null && this.directory) {
      await fs.mkdir(this.directory, { recursive: true });
      stored.file = path.join(this.directory, `${++this.spillCounter}.v${version}.bak`);
    }
    try {
      if (size !== null) await keep(stored);
    } catch (error) {
      if (stored.file) await fs.rm(stored.file, { force: true });
      throw error;
    }
    this.lastVersion.set(realPath, version);
    this.versions.push(stored);
    this.storedBytes += size ?? 0;
    await this.evict(realPath);
    return { ...entry };
  }

  /** Saved versions, oldest first; only those of `filePath` when given. */
  list(filePath?: string): HistoryEntry[] {
    const key = filePath === undefined ? undefined : this.keyOf(filePath);
    return this.versions
      .filter((stored) => key === undefined || stored.entry.path === key)
      .map((stored) => ({ ...stored.entry }));
  }

  /**
   * Puts back the content saved as `version` of `filePath` (the latest version by default), atomically. Restoring
   * a version where the file did not exist deletes the file. The content being replaced is saved first, so a restore
   * can itself be undone. Returns the entry that was restored.
   */
  async restore(filePath: string, version?: number): Promise<HistoryEntry> {
    const key = this.keyOf(filePath);
    const candidates = this.versions.filter((stored) => stored.entry.path === key);
    const stored =
      version === undefined ? candidates.at(-1) : candidates.find((item) => item.entry.version === version);
    if (!stored) throw new Error(noSavedVersionMessage(filePath, version));
    const { size } = stored.entry;
    // Spilled content is copied from its file, never read whole (a version may be larger than a buffer holds);
    // opened before the current content is saved, whose eviction may remove that file.
    const spill = size !== null && stored.file ? await fs.open(stored.file, 'r') : undefined;
    try {
      const current = await openRegularFile(key);
      if (current === 'not-a-file') throw errnoError('EISDIR', notRegularFileErrnoText(key));
      if (current === 'missing') await this.save(key, null);
      else {
        try {
          await this.saveFromHandle(key, current.handle, current.stats.size);
        } finally {
          await current.handle.close();
        }
      }
      if (size === null) await fs.rm(key, { force: true });
      else if (spill)
        await writeFileAtomic(key, { size, writeTo: (target) => copyHandle(spill, size, target) });
      else await writeFileAtomic(key, stored.bytes ?? new Uint8Array());
    } finally {
      await spill?.close();
    }
    return { ...stored.entry };
  }

  /**
   * Undoes the last unit of change (docs/writing.md#history-and-undo): every file it saved goes back to its saved
   * content at once, all or nothing (a file that did not exist is removed), through `fs`, the file system the files
   * are on. The unit's versions then leave the history, so the next `undo` goes one unit further back. Returns the
   * entries restored, or `[]` when there is nothing to undo.
   */
  async undo(fs: FileSystem = localFileSystem): Promise<HistoryEntry[]> {
    const unit = this.versions.at(-1)?.unit;
    if (unit === undefined) return [];
    const members = this.versions.filter((stored) => stored.unit === unit);
    const steps: CommitStep[] = [];
    for (const stored of members) {
      const file = stored.entry.path;
      const { state: previous } = await readPreviousState(fs, file);
      if (stored.entry.size === null) {
        if (previous.kind !== 'missing') steps.push({ kind: 'remove', path: file, previous });
        continue;
      }
      // Spill files are the history's own storage, always on the local disk.
      const bytes = stored.file ? await readFile(stored.file) : (stored.bytes ?? new Uint8Array());
      const mode = previous.kind === 'file' ? previous.mode : 0o644;
      steps.push({ kind: 'write', path: file, bytes, mode, previous });
    }
    await commitFileSet(fs, steps);
    for (const stored of members) {
      this.versions.splice(this.versions.indexOf(stored), 1);
      this.storedBytes -= stored.entry.size ?? 0;
      await this.discard(stored);
    }
    return members.map((stored) => ({ ...stored.entry }));
  }

  /** Forgets every version (and removes spill files). */
  async clear(): Promise<void> {
    const removed = this.versions.splice(0);
    this.storedBytes = 0;
    await Promise.all(removed.map((stored) => this.discard(stored)));
  }

  // Paths are stored as real paths; accept the same file given relatively or through a symlink too.
  private keyOf(filePath: string): string {
    if (this.lastVersion.has(filePath)) return filePath;
    const absolute = path.resolve(filePath);
    if (this.lastVersion.has(absolute)) return absolute;
    try {
      return realpathSync.native(absolute);
    } catch {
      return absolute;
    }
  }

  private async evict(justSaved: string): Promise<void> {
    const dropped: StoredVersion[] = [];
    const ofPath = this.versions.filter((stored) => stored.entry.path === justSaved);
    for (const stored of ofPath.slice(0, Math.max(0, ofPath.length - this.maxVersionsPerFile)))
      dropped.push(stored);
    for (const stored of this.versions) {
      if (this.storedBytes - sizeOf(dropped) <= this.maxBytes) break;
      if (!dropped.includes(stored)) dropped.push(stored);
    }
    for (const stored of dropped) {
      this.versions.splice(this.versions.indexOf(stored), 1);
      this.storedBytes -= stored.entry.size ?? 0;
    }
    await Promise.all(dropped.map((stored) => this.discard(stored)));
  }

  private async discard(stored: StoredVersion): Promise<void> {
    if (stored.file) await fs.rm(stored.file, { force: true });
  }
}

/** Bytes copied at a time into a spill file. */
const SPILL_CHUNK_BYTES = 8 << 20;

/** Copies the first `size` bytes of `source` to the start of `target`, chunk by chunk. */
async function copyHandle(source: FileHandle, size: number, target: FileHandle): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(SPILL_CHUNK_BYTES, size)));
  for (let at = 0; at < size;) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, size - at), at);
    if (bytesRead === 0) throw new Error(`The file ended after ${at} of ${size} bytes while it was copied.`);
    let written = 0;
    while (written < bytesRead) {
      written += (await target.write(buffer, written, bytesRead - written, at + written)).bytesWritten;
    }
    at += bytesRead;
  }
}

async function copyHandleToFile(source: FileHandle, size: number, file: string): Promise<void> {
  const target = await fs.open(file, 'w');
  try {
    await copyHandle(source, size, target);
  } finally {
    await target.close();
  }
}

function sizeOf(versions: StoredVersion[]): number {
  return versions.reduce((total, stored) => total + (stored.entry.size ?? 0), 0);
}
