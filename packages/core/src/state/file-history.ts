import path from 'node:path';
import {
  historyPathsMovedMessage,
  noSavedVersionMessage,
  notRegularFileErrnoText,
  undoneFilesChangedMessage,
} from '../errors.js';
import { errnoError, hasErrno } from '../fs/errno.js';
import type { FileSystem, OpenFile } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { openRegularFile } from '../fs/regular-file.js';
import { pathApiFor } from '../path/platform-path.js';
import { pathsResolvingElsewhere } from '../path/real-path.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { writeFileAtomic } from '../write/atomic-write.js';
import {
  CommitFailedError,
  commitFileSet,
  readPreviousState,
  type CommitStep,
} from '../write/commit-file-set.js';
import { createDirectories, removeCreatedDirectories } from '../write/created-directories.js';
import { withFileSetLocks } from '../write/file-set-locks.js';
import { RUNTIME_DIRECTORIES, type ChangeDirectories } from '../write/runtime-directories.js';
import { missingDirectories } from '../write/missing-directories.js';
import { CONTENT_HASH_LIMIT_BYTES, hashBytes, hashFile } from './content-hash.js';
import { sameStamp, stampOf, stampOfStats, type FileStamp } from './file-stamp.js';

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
  /**
   * Keep saved bytes in files under this directory of the local disk instead of in memory (created when first
   * needed), whatever file system the saved files are on.
   */
  directory?: string;
  /** Versions kept per path; older ones are dropped first (default 50). */
  maxVersionsPerFile?: number;
  /** Total bytes kept over all versions; the oldest versions are dropped first (default 256 MiB). */
  maxBytes?: number;
}

/**
 * What a change left at a path ({@link FileHistory.recordWritten}): the size and content hash of the bytes it wrote (a
 * file up to 64 MiB, or on a backend whose stamps always carry a hash), the stamp the file had right after the commit
 * (a bigger file, told apart by what the file system says), or `'missing'` for a file it removed.
 */
export type WrittenState = { size: number; hash: string } | { stamp: FileStamp } | 'missing';

/** The {@link WrittenState} of a file whose stamp is `stamp`: by its content where the stamp carries a hash. */
export function writtenStateOf(stamp: FileStamp): WrittenState {
  return stamp.hash === undefined ? { stamp } : { size: stamp.size, hash: stamp.hash };
}

/**
 * The {@link WrittenState} of a change that wrote `bytes`, when they are small enough to hash (64 MiB); `hash` is
 * their {@link hashBytes} when the caller has it already.
 */
export function writtenBytes(bytes: Uint8Array, hash?: string): WrittenState | undefined {
  return bytes.length <= CONTENT_HASH_LIMIT_BYTES
    ? { size: bytes.length, hash: hash ?? hashBytes(bytes) }
    : undefined;
}

/** Who saves a version: the tools pass it, so that an undo can check what their change left (docs/writing.md). */
export interface SavedBy {
  /** The runtime whose tool makes the change: a restore or an undo takes the file's lock through it. */
  runtime: ToolRuntime;
  /**
   * The stamp of the content saved, as the tool looked at it. When it is what an earlier change left, an undo that
   * puts it back vouches for that change's file again (by what the file system says, for a file too big to hash).
   */
  stamp?: FileStamp;
}

interface StoredVersion {
  entry: HistoryEntry;
  /** The unit of change it belongs to: one per single-file change, one for all files of a patch. */
  unit: number;
  /** The file system the file is on: a restore writes it back there. */
  fs: FileSystem;
  /** The tool that saved it; absent for a version saved by hand, whose change the history never hears of. */
  by?: SavedBy;
  /**
   * What the change left ({@link FileHistory.recordWritten}); `'unknown'` when its writer could not look. Until it is
   * told, a tool's change counts as unknown: an undo puts nothing back over a file it cannot vouch for.
   */
  written?: WrittenState | 'unknown';
  /** In-memory content, when no directory is used. */
  bytes?: Uint8Array;
  /** Spill file, when a directory is used. */
  file?: string;
}

/**
 * Previous versions of the files the tools changed, for undo (docs/writing.md). The caller creates one per session and
 * passes it to `createRuntime({ history })`. A version larger than `maxBytes` is not kept. Each version remembers the
 * file system its file is on, and is restored through it; spill files are on the local disk.
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
   * Saves the content `realPath` on `fs` has before a change: its bytes, or `null` when it does not exist yet.
   * Returns the new entry, or `undefined` when the content alone exceeds `maxBytes` and was not kept. `by`: the tool
   * that makes the change, which then tells what it left ({@link recordWritten}), or takes the version back if the
   * change is not made ({@link withdraw}).
   */
  async save(
    fs: FileSystem,
    realPath: string,
    bytes: Uint8Array | null,
    by?: SavedBy,
  ): Promise<HistoryEntry | undefined> {
    return this.saveIn(++this.unitCounter, fs, realPath, bytes, by);
  }

  /**
   * Saves the content several files on `fs` have before one change to them all (a patch): one unit, which
   * {@link undo} restores as a whole. Returns the entries kept.
   */
  async saveUnit(
    fs: FileSystem,
    files: readonly { path: string; bytes: Uint8Array | null; stamp?: FileStamp }[],
    by?: SavedBy,
  ): Promise<HistoryEntry[]> {
    const unit = ++this.unitCounter;
    const kept: HistoryEntry[] = [];
    try {
      for (const file of files) {
        const saver = by && { runtime: by.runtime, ...(file.stamp ? { stamp: file.stamp } : {}) };
        const entry = await this.saveIn(unit, fs, file.path, file.bytes, saver);
        if (entry) kept.push(entry);
      }
    } catch (error) {
      // Half a unit is no unit: its caller never gets the entries to take back.
      await this.withdraw(kept);
      throw error;
    }
    return kept;
  }

  private async saveIn(
    unit: number,
    fs: FileSystem,
    realPath: string,
    bytes: Uint8Array | null,
    by: SavedBy | undefined,
  ): Promise<HistoryEntry | undefined> {
    return this.store(unit, fs, by, realPath, bytes === null ? null : bytes.length, async (stored) => {
      if (bytes && stored.file) await writeSpillFile(stored.file, (target) => writeAll(target, bytes, 0));
      // A copy: the caller's buffer may be reused or changed after this call.
      else if (bytes) stored.bytes = new Uint8Array(bytes);
    });
  }

  /**
   * Saves the content of the file `realPath` on `fs`, open on `handle` (its first `size` bytes), for a file too large
   * to hold in memory: with a `directory` it is copied there chunk by chunk; without one it is read into memory, as
   * `save` keeps it. A file over `maxBytes` is not kept (`undefined`), whatever its size.
   */
  async saveFromHandle(
    fs: FileSystem,
    realPath: string,
    handle: OpenFile,
    size: number,
    by?: SavedBy,
  ): Promise<HistoryEntry | undefined> {
    return this.store(++this.unitCounter, fs, by, realPath, size, async (stored) => {
      if (stored.file) await writeSpillFile(stored.file, (target) => copyHandle(handle, size, target));
      else stored.bytes = await readHandleUpTo(handle, size);
    });
  }

  // Shared by both saves: the size check, the entry, the spill file name, then eviction.
  private async store(
    unit: number,
    fs: FileSystem,
    by: SavedBy | undefined,
    realPath: string,
    size: number | null,
    keep: (stored: StoredVersion) => Promise<void>,
  ): Promise<HistoryEntry | undefined> {
    if ((size ?? 0) > this.maxBytes) return undefined;
    const version = (this.lastVersion.get(realPath) ?? 0) + 1;
    const entry: HistoryEntry = { path: realPath, version, time: new Date(), size };
    const stored: StoredVersion = { entry, unit, fs, ...(by === undefined ? {} : { by }) };
    if (size !== null && this.directory) {
      await localFileSystem.mkdir(this.directory, { recursive: true });
      stored.file = path.join(this.directory, `${++this.spillCounter}.v${version}.bak`);
    }
    try {
      if (size !== null) await keep(stored);
    } catch (error) {
      if (stored.file) await removeIfThere(localFileSystem, stored.file);
      throw error;
    }
    this.lastVersion.set(realPath, version);
    this.versions.push(stored);
    this.storedBytes += size ?? 0;
    await this.evict(realPath);
    return { ...entry };
  }

  /**
   * Tells what the change saved as `entry` (an entry a save returned) left at its path, once it is committed;
   * `undefined` when the writer could not look. An undo then refuses to put the saved version back over anything else
   * the file holds by then. A version no longer kept is passed over.
   */
  recordWritten(entry: HistoryEntry, written: WrittenState | undefined): void {
    const stored = this.storedOf(entry);
    if (stored) stored.written = written ?? 'unknown';
  }

  /**
   * Takes back the versions a change saved when that change is not made (refused or failed before its commit): an
   * undo must never put them back over a file the change never touched.
   */
  async withdraw(entries: readonly HistoryEntry[]): Promise<void> {
    await this.drop(entries);
  }

  /**
   * Settles the versions a failed change saved: taken back ({@link withdraw}) where it never reached the file
   * (refused before its commit point, or rolled back), kept elsewhere with what it meant to leave there
   * ({@link recordWritten}): the file may hold that now, and the version is then the only copy of what was there.
   */
  async settleFailed(
    entries: readonly HistoryEntry[],
    reached: (entry: HistoryEntry) => boolean,
    meant: (entry: HistoryEntry) => WrittenState | undefined | Promise<WrittenState | undefined>,
  ): Promise<void> {
    await this.withdraw(entries.filter((entry) => !reached(entry)));
    for (const entry of entries.filter(reached)) this.recordWritten(entry, await meant(entry));
  }

  /** Removes the versions of `entries` still kept, with their spill files. */
  private async drop(entries: readonly HistoryEntry[]): Promise<void> {
    for (const entry of entries) {
      const stored = this.storedOf(entry);
      if (stored === undefined) continue;
      this.unlist(stored);
      await this.discard(stored);
    }
  }

  /** Takes `stored` out of the list of versions and of the bytes counted against `maxBytes`. */
  private unlist(stored: StoredVersion): void {
    this.versions.splice(this.versions.indexOf(stored), 1);
    this.storedBytes -= stored.entry.size ?? 0;
  }

  private storedOf(entry: HistoryEntry): StoredVersion | undefined {
    return this.versions.find(
      (item) => item.entry.path === entry.path && item.entry.version === entry.version,
    );
  }

  /** Saved versions, oldest first; only those of `filePath` when given (its real path, or one resolving to it lexically). */
  list(filePath?: string): HistoryEntry[] {
    const key = filePath === undefined ? undefined : this.knownKeyOf(filePath);
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
    const key = await this.keyOf(filePath);
    const candidates = this.versions.filter((stored) => stored.entry.path === key);
    const stored =
      version === undefined ? candidates.at(-1) : candidates.find((item) => item.entry.version === version);
    if (!stored) throw new Error(noSavedVersionMessage(filePath, version));
    const { size } = stored.entry;
    const { fs } = stored;
    await underLocks(stored.by, [key], async (verify) => {
      await refuseMoved(fs, [key], 'restored');
      // Spilled content is copied from its file, never read whole (a version may be larger than a buffer holds);
      // opened before the current content is saved, whose eviction may remove that file.
      const spill =
        size !== null && stored.file ? await localFileSystem.open(stored.file, 'read') : undefined;
      let replaced: HistoryEntry | undefined;
      let committing = false;
      const runtime = stored.by?.runtime;
      try {
        const current = await openRegularFile(fs, key);
        if (current === 'not-a-file') throw errnoError('EISDIR', notRegularFileErrnoText(key));
        if (current === 'missing') replaced = await this.save(fs, key, null, runtime && { runtime });
        else {
          try {
            const by = runtime && { runtime, stamp: stampOfStats(current.stats) };
            replaced = await this.saveFromHandle(fs, key, current.handle, current.stats.size, by);
          } finally {
            await current.handle.close();
          }
        }
        const options = {
          beforeCommit: async () => {
            await verify();
            await refuseMoved(fs, [key], 'restored');
            committing = true;
          },
        };
        if (size === null) {
          await options.beforeCommit();
          await removeIfThere(fs, key);
        } else if (spill)
          await writeFileAtomic(
            fs,
            key,
            { size, writeTo: (target) => copyHandle(spill, size, target) },
            options,
          );
        else await writeFileAtomic(fs, key, stored.bytes ?? new Uint8Array(), options);
      } catch (error) {
        if (replaced) {
          await this.settleFailed(
            [replaced],
            () => committing,
            async () => {
              if (size === null) return 'missing';
              const hash = await savedHash(stored).catch(() => undefined);
              return hash === undefined ? undefined : { size, hash };
            },
          );
        }
        throw error;
      } finally {
        await spill?.close();
      }
      if (replaced) this.recordWritten(replaced, await leftAt(fs, key));
    });
    return { ...stored.entry };
  }

  /**
   * Undoes the last unit of change (docs/writing.md#history-and-undo): every file it saved goes back to its saved
   * content at once, all or nothing (a file that did not exist is removed), through the file system it was saved
   * from, under the files' locks. The unit's versions then leave the history, so the next `undo` goes one unit further
   * back. Returns the entries restored, or `[]` when there is nothing to undo. Nothing is put back when a file holds
   * anything but what the change wrote (someone edited it since): that content would be lost. The undo then throws,
   * and the unit stays.
   */
  async undo(): Promise<HistoryEntry[]> {
    const last = this.versions.at(-1);
    if (last === undefined) return [];
    const members = this.versions.filter((stored) => stored.unit === last.unit);
    // A file put back goes where it was, even where the user has removed its directory since (nothing is lost): the
    // directories are made first, so that its lock file can live there, and removed again unless the undo is done.
    const directories = await makeDirectories(last, await directoriesToMake(last.fs, members));
    let done = false;
    try {
      done = await this.undoUnit(last, members, directories.remake);
    } finally {
      await directories.end(done);
    }
    if (!done) return this.undo();
    await this.drop(members.map((stored) => stored.entry));
    return members.map((stored) => ({ ...stored.entry }));
  }

  /**
   * Puts `members`, the unit of `last`, back under their locks; false when another undo took the unit meanwhile.
   * `remake` makes a lock file's directory again, found gone.
   */
  private async undoUnit(
    last: StoredVersion,
    members: readonly StoredVersion[],
    remake: ChangeDirectories['remake'],
  ): Promise<boolean> {
    return underLocks(
      last.by,
      members.map((stored) => stored.entry.path),
      async (verify) => {
        // Another undo may have taken this unit while this one waited for the locks, or a save evicted part of it.
        if (this.versions.at(-1)?.unit !== last.unit) return false;
        if (this.versions.filter((stored) => stored.unit === last.unit).length !== members.length)
          return false;
        const changed: string[] = [];
        for (const stored of members) if (await holdsOtherContent(stored)) changed.push(stored.entry.path);
        if (changed.length > 0) throw new Error(undoneFilesChangedMessage(changed));
        const paths = members.map((stored) => stored.entry.path);
        await refuseMoved(last.fs, paths, 'undone');
        const steps: CommitStep[] = [];
        for (const stored of members) {
          const file = stored.entry.path;
          const { state: previous } = await readPreviousState(last.fs, file);
          if (stored.entry.size === null) {
            if (previous.kind !== 'missing') steps.push({ kind: 'remove', path: file, previous });
            continue;
          }
          const bytes = stored.file ? await readSpillFile(stored.file) : (stored.bytes ?? new Uint8Array());
          const mode = previous.kind === 'file' ? previous.mode : 0o644;
          steps.push({ kind: 'write', path: file, bytes, mode, previous });
        }
        await verify();
        try {
          // The temp files take a while: a directory may become a link meanwhile, and a rename through it would land
          // wherever it leads.
          await commitFileSet(last.fs, steps, { beforeRenames: () => refuseMoved(last.fs, paths, 'undone') });
        } catch (error) {
          if (error instanceof CommitFailedError && error.cause instanceof HistoryPathsMovedError)
            throw error.cause;
          throw error;
        }
        await this.vouchForEarlierChanges(members);
        return true;
      },
      remake,
    );
  }

  /**
   * After an undo put back `members`: a version saved from exactly what an earlier change of the same file left (its
   * stamp when the tool looked) makes that file again, so that change's record is moved to the file now there. A
   * file too big to hash is told apart by what the file system says, which the undo's own write changed.
   */
  private async vouchForEarlierChanges(members: readonly StoredVersion[]): Promise<void> {
    for (const stored of members) {
      const saved = stored.by?.stamp;
      if (saved === undefined || stored.entry.size === null) continue;
      const earlier = this.versions
        .filter((item) => item.entry.path === stored.entry.path && !members.includes(item))
        .at(-1);
      const left = earlier?.written;
      if (typeof left !== 'object' || !('stamp' in left) || !sameStamp(saved, left.stamp)) continue;
      earlier!.written = (await leftAt(stored.fs, stored.entry.path)) ?? 'unknown';
    }
  }

  /** Forgets every version (and removes spill files). */
  async clear(): Promise<void> {
    const removed = this.versions.splice(0);
    this.storedBytes = 0;
    await Promise.all(removed.map((stored) => this.discard(stored)));
  }

  // Paths are stored as real paths; accept the same file given relatively too.
  private knownKeyOf(filePath: string): string {
    if (this.lastVersion.has(filePath)) return filePath;
    return path.resolve(filePath);
  }

  // ...or through a symlink, resolved on the file systems of the versions kept.
  private async keyOf(filePath: string): Promise<string> {
    const known = this.knownKeyOf(filePath);
    if (this.lastVersion.has(known)) return known;
    for (const fs of new Set(this.versions.map((stored) => stored.fs))) {
      const real = await fs.realpath(known).catch(() => undefined);
      if (real !== undefined && this.lastVersion.has(real)) return real;
    }
    return known;
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
    for (const stored of dropped) this.unlist(stored);
    // A spill file that cannot be removed is left behind rather than failing the change being saved.
    await Promise.all(dropped.map((stored) => this.discard(stored).catch(() => undefined)));
  }

  private async discard(stored: StoredVersion): Promise<void> {
    if (stored.file) await removeIfThere(localFileSystem, stored.file);
  }
}

/**
 * Runs `task` holding the lock files of `paths` through `by`, the runtime whose tool made the change, as its tools
 * hold them (`verify` before a commit: the locks are still this holder's). A version saved by hand has no runtime:
 * its files are changed without locks.
 */
async function underLocks<T>(
  savedBy: SavedBy | undefined,
  paths: readonly string[],
  task: (verify: () => Promise<void>) => Promise<T>,
  remakeDirectory?: ChangeDirectories['remake'],
): Promise<T> {
  if (savedBy === undefined) return task(async () => {});
  const by = savedBy.runtime;
  // A lock file lives beside its file: where the directory is gone there is no file to lose, and no lock to take.
  const { dirname } = pathApiFor(by.fs.platform);
  // Asked together: over SSH, one round trip for them all.
  const there = await Promise.all(
    paths.map((filePath) => by.fs.stat(dirname(filePath)).then(isDirectory, () => false)),
  );
  const lockable = paths.filter((_, index) => there[index]);
  return withFileSetLocks(by, lockable, (locks) => task(() => locks.verify()), remakeDirectory);
}

/**
 * Makes the missing `directories` of an undo: through the runtime of the tool that saved the unit, as that runtime's
 * changes make theirs (docs/writing.md#one-change-at-a-time: one of them beside the undo may have made, and may
 * remove, a directory the undo found there); on their own for a unit saved by hand, which no runtime writes.
 */
async function makeDirectories(
  last: StoredVersion,
  directories: readonly string[],
): Promise<ChangeDirectories> {
  if (last.by) return last.by.runtime.slot(RUNTIME_DIRECTORIES).begin(directories);
  const created = await createDirectories(last.fs, directories);
  return {
    created,
    // A unit saved by hand is put back without locks: no lock file looks for its directory.
    remake: async () => undefined,
    end: async (wrote) => {
      if (!wrote) await removeCreatedDirectories(last.fs, created);
    },
  };
}

/** The missing directories of the files `members` put back, shallowest first, each once. */
async function directoriesToMake(fs: FileSystem, members: readonly StoredVersion[]): Promise<string[]> {
  const directories = new Set<string>();
  for (const stored of members) {
    if (stored.entry.size === null) continue;
    for (const directory of await missingDirectories(fs, stored.entry.path)) directories.add(directory);
  }
  return [...directories];
}

function isDirectory(stats: { isDirectory(): boolean }): boolean {
  return stats.isDirectory();
}

/** What `filePath` on `fs` holds now, as {@link FileHistory.recordWritten} takes it. */
async function leftAt(fs: FileSystem, filePath: string): Promise<WrittenState | undefined> {
  const now = await stampOf(fs, filePath).catch(() => undefined);
  if (now === undefined || now === 'not-a-file') return undefined;
  return now === 'missing' ? now : writtenStateOf(now);
}

/**
 * Whether the file of `stored` may hold something its change did not leave, which putting the saved version back
 * would lose. A file that is gone holds nothing to lose. Content decides where the change's bytes were hashed (an
 * earlier undo may have put back the same bytes as a new file); a file too big to hash is compared by what the file
 * system says. A tool's change whose outcome was never told counts as changed; a version saved by hand is not checked.
 */
async function holdsOtherContent(stored: StoredVersion): Promise<boolean> {
  const { written } = stored;
  if (written === undefined && stored.by === undefined) return false;
  const now = await stampOf(stored.fs, stored.entry.path);
  if (now === 'missing') return false;
  if (now === 'not-a-file') return true;
  if (typeof written === 'object' && holdsWritten(now, written)) return false;
  // The very content saved (a change that failed before it reached the file): putting it back loses nothing.
  return !(await holdsSaved(stored, now));
}

function holdsWritten(now: FileStamp, written: Exclude<WrittenState, 'missing'>): boolean {
  if ('hash' in written) return now.size === written.size && now.hash === written.hash;
  return sameStamp(now, written.stamp);
}

async function holdsSaved(stored: StoredVersion, now: FileStamp): Promise<boolean> {
  if (now.hash === undefined || now.size !== stored.entry.size) return false;
  return (await savedHash(stored)) === now.hash;
}

/** The content hash of the bytes `stored` keeps, when they are small enough to hash (64 MiB). */
async function savedHash(stored: StoredVersion): Promise<string | undefined> {
  const size = stored.entry.size ?? 0;
  if (size > CONTENT_HASH_LIMIT_BYTES) return undefined;
  return stored.file ? hashFile(localFileSystem, stored.file) : hashBytes(stored.bytes ?? new Uint8Array());
}

/** Bytes copied at a time into a spill file. */
const SPILL_CHUNK_BYTES = 8 << 20;

/** Writes all of `bytes` at `position` of `target`, looping over short writes. */
async function writeAll(target: OpenFile, bytes: Uint8Array, position: number): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += (await target.write(bytes, written, bytes.length - written, position + written)).bytesWritten;
  }
}

/** Copies the first `size` bytes of `source` to the start of `target`, chunk by chunk. */
async function copyHandle(source: OpenFile, size: number, target: OpenFile): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(SPILL_CHUNK_BYTES, size)));
  for (let at = 0; at < size;) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, size - at), at);
    if (bytesRead === 0) throw new Error(`The file ended after ${at} of ${size} bytes while it was copied.`);
    await writeAll(target, buffer.subarray(0, bytesRead), at);
    at += bytesRead;
  }
}

/** Creates the spill file `file` on the local disk (replacing one an earlier session left) and fills it through `fill`. */
async function writeSpillFile(file: string, fill: (target: OpenFile) => Promise<void>): Promise<void> {
  await removeIfThere(localFileSystem, file);
  const target = await localFileSystem.create(file);
  try {
    await fill(target);
  } finally {
    await target.close();
  }
}

/** The whole content of a spill file (the history's own storage, on the local disk). */
async function readSpillFile(file: string): Promise<Uint8Array> {
  const source = await localFileSystem.open(file, 'read');
  try {
    return await readHandleUpTo(source, (await source.stat()).size);
  } finally {
    await source.close();
  }
}

/** Removes the file at `filePath` on `fs`; one that is not there is fine. */
async function removeIfThere(fs: FileSystem, filePath: string): Promise<void> {
  try {
    await fs.unlink(filePath);
  } catch (error) {
    if (!hasErrno(error, 'ENOENT')) throw error;
  }
}

function sizeOf(versions: StoredVersion[]): number {
  return versions.reduce((total, stored) => total + (stored.entry.size ?? 0), 0);
}

/** Thrown when a file of an undo or a restore resolves elsewhere than where it was saved from. */
class HistoryPathsMovedError extends Error {}

/**
 * Throws {@link HistoryPathsMovedError} when one of `paths` (real paths when saved) resolves elsewhere now: a directory
 * on the way became a link, maybe out of the workspace, and what is put back would land wherever it leads.
 */
async function refuseMoved(
  fs: FileSystem,
  paths: readonly string[],
  action: 'undone' | 'restored',
): Promise<void> {
  const moved = await pathsResolvingElsewhere(fs, paths);
  if (moved.length > 0) throw new HistoryPathsMovedError(historyPathsMovedMessage(moved, action));
}
