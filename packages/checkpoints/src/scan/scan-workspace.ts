import type { FileSystem } from '@kimi-tools/core';
import { FileType, hasLoneSurrogate, type FileStats, type StatsTable } from '@kimi-tools/core/fs';
import {
  backendClock,
  createContentHasher,
  IGNORE_FILE_NAMES,
  ignoredEntryTest,
  isAtomicTempName,
  isLockFileName,
  levelForDirectory,
  loadIgnoreRules,
  lstatMany,
  hasErrno,
  readHandleUpTo,
  type IgnoreLevel,
  type IgnoreRuleCache,
} from '@kimi-tools/core/toolkit';
import { sameContent } from './manifest.js';
import {
  entryOfRow,
  ROW_DIR,
  ROW_FILE,
  ROW_LARGE,
  ROW_LINK,
  ROW_RULES,
  rowOfStats,
  StampIndex,
  type IndexHeader,
  type IndexRow,
} from './stamp-index.js';
import { isAtOrBelow, nameOf, parentOf } from './workspace-paths.js';

/** Files read and hashed at once. */
const HASH_CONCURRENCY = 16;

/** Directories listed at once. */
const LIST_CONCURRENCY = 32;

/**
 * A file (or directory) modified this close before the previous scan began may have changed again within the same
 * tick of the file system's clock after it was read (Linux stamps files with a clock of a few milliseconds' grain):
 * it is read again rather than trusted by its stamp.
 */
const RACY_WINDOW_MS = 1000;

/** What a scan needs. */
export interface ScanRequest {
  fs: FileSystem;
  /** The workspace root, a real absolute path. */
  root: string;
  /** The index of the last checkpoint's scan: what did not move since is not read again. */
  previous: StampIndex | undefined;
  /** Files bigger than this are recorded as not restorable. */
  maxFileBytes: number;
  /** Called with the bytes of every file read, and its path (a storing scan keeps them); absent: nothing is stored. */
  store?: (hash: string, bytes: Uint8Array, path: string) => Promise<void>;
  /** Ignore rule sets compiled by earlier scans. */
  ruleCache?: IgnoreRuleCache;
  /** A workspace-relative directory never entered nor recorded: the store's own, when it lies in the workspace. */
  exclude?: string;
}

/** What a scan found. */
export interface ScanResult {
  /** The index of this scan (its header's `manifest` is the previous one's: the caller sets it). */
  index: StampIndex;
  /** The paths whose manifest entry differs from the previous scan's, sorted (every path for a first scan). */
  changed: string[];
  /** Whether the index differs from the previous one (a stamp moved, or a racy file was read again). */
  rewritten: boolean;
}

/** What kind of row stats make (an ignore file the rules leave out, or a file over the limit, aside). */
function kindOfStats(stats: FileStats): number | undefined {
  if (stats.isSymbolicLink()) return ROW_LINK;
  if (stats.isDirectory()) return ROW_DIR;
  if (stats.isFile()) return ROW_FILE;
  return undefined;
}

/**
 * Whether `type` (the type bits of a mode) is the kind of thing a row of `kind` is (a file for a large file and for
 * ignored rules).
 */
function sameKind(kind: number, type: number): boolean {
  if (kind === ROW_DIR) return type === FileType.DIRECTORY;
  if (kind === ROW_LINK) return type === FileType.SYMBOLIC_LINK;
  return type === FileType.FILE;
}

/** Whether `path` is below one of `directories`. */
function below(path: string, directories: ReadonlySet<string>): boolean {
  for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) if (directories.has(dir)) return true;
  return false;
}

/** Runs `task` on every item, `limit` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Every path of the workspace the ignore rules keep (`.gitignore` and `.ignore` of each directory, version-control
 * folders and `node_modules`, as the search tools apply them), read through the runtime's file system: files with
 * their content hash, symbolic links with their target text (never followed), directories with their mode.
 *
 * With the previous scan's index, every path it holds is lstat'ed at once (`lstatMany`); a file whose stamp did not
 * move keeps its hash, and, where the backend reports change times and inodes, a directory whose stamp did not move
 * keeps its listing: nothing was added to it, removed or renamed (each of those moves a directory's modification and
 * change times). So a scan with nothing changed reads no file and lists no directory. Only directories that moved
 * are listed again; and when an ignore file changed, appeared or went, every directory is.
 */
export async function scanWorkspace(request: ScanRequest): Promise<ScanResult> {
  // Where the backend cannot tell its time, this process's: a host whose clock is behind then has its files of the
  // last second taken on trust.
  const startedAtMs = await backendClock(request.fs);
  const trusted = request.previous !== undefined && listingsTrusted(request.fs);
  const result = await new Scan(request, startedAtMs).run(trusted);
  if (result !== 'rules-changed') return result;
  // An ignore file appeared in a directory listed again: what it ignores below may have been taken on trust.
  const again = await new Scan(request, startedAtMs).run(false);
  if (again === 'rules-changed') throw new Error('A full scan cannot find its rules changed.');
  return again;
}

/** Whether a directory whose stamp did not move can be taken to hold the same names (see {@link scanWorkspace}). */
function listingsTrusted(fs: FileSystem): boolean {
  return fs.capabilities.ctime && fs.capabilities.inodes;
}

/** A path a listing found. */
interface Found {
  path: string;
  /** An ignore file the rules themselves leave out (kept for its rules, not in the manifest). */
  ignoredRules: boolean;
}

/** One scan: the previous index's rows settled from their new stats, the directories that moved listed again. */
class Scan {
  private readonly previous: StampIndex | undefined;
  /** Rows modified at or after this are read again whatever their stamp. */
  private readonly racyFrom: number;
  /** The new stats of every row of the previous index. */
  private previousStats: StatsTable | undefined;
  /** The rows of the previous index this scan has dealt with (met again, or gone). */
  private readonly settled: Uint8Array;
  /** New rows by path; `null`: the path is gone. */
  private readonly changes = new Map<string, IndexRow | null>();
  /** A racy row was read again: the index moves on to this scan's time even if nothing changed. */
  private racyRead = false;
  private readonly toRead: Array<{ path: string; stats: FileStats; row: number | undefined }> = [];
  /** The ignore files of each directory, by name, as far as known. */
  private readonly ignoreNames = new Map<string, string[]>();
  private readonly levels = new Map<string, Promise<readonly IgnoreLevel[]>>();

  constructor(
    private readonly request: ScanRequest,
    /** When the scan began, on the clock that stamps the workspace's files (`backendClock`). */
    private readonly scannedAtMs: number,
  ) {
    this.previous = request.previous;
    this.racyFrom = this.previous ? this.previous.header.scannedAtMs - RACY_WINDOW_MS : -Infinity;
    this.settled = new Uint8Array(this.previous?.count ?? 0);
  }

  /** Whether `path` is the excluded directory or below it (an index written before it was excluded has it). */
  private excluded(path: string): boolean {
    const exclude = this.request.exclude;
    return exclude !== undefined && isAtOrBelow(path, exclude);
  }

  private absolute(path: string): string {
    return path === '' ? this.request.root : `${this.request.root}/${path}`;
  }

  async run(trustListings: boolean): Promise<ScanResult | 'rules-changed'> {
    const previous = this.previous;
    if (previous) {
      this.previousStats = await lstatMany(this.request.fs, this.request.root, previous.paths);
      for (let row = 0; row < previous.count; row += 1) {
        if (!previous.isIgnoreFile(row)) continue;
        const path = previous.paths[row]!;
        const names = this.ignoreNames.get(parentOf(path)) ?? [];
        names.push(nameOf(path));
        this.ignoreNames.set(parentOf(path), names);
        // An ignore file that moved: the rules may have changed anywhere below it.
        if (!this.unmoved(row)) trustListings = false;
      }
    }
    const rootRow = previous?.rootRow();
    if (trustListings && rootRow !== undefined) {
      if ((await this.walk(this.settleKnownRows(), true)) === 'rules-changed') return 'rules-changed';
    } else {
      this.ignoreNames.clear();
      const root =
        (rootRow === undefined ? undefined : this.previousStats!.at(rootRow)) ??
        (await this.request.fs.lstat(this.request.root));
      this.visit('', root, rootRow, false);
      await this.walk([''], false);
      // What the walk did not meet is gone, or ignored now.
      if (previous)
        for (let row = 0; row < previous.count; row += 1) if (!this.settled[row]) this.remove(row);
    }
    await this.readAll();
    return this.result();
  }

  /** Whether row `row` is still the same kind of thing with the same stamp, old enough for the stamp to be trusted. */
  private unmoved(row: number): boolean {
    const stats = this.previousStats!;
    return (
      stats.has(row) &&
      sameKind(this.previous!.kindOf(row), stats.type(row)) &&
      this.previous!.sameStampIn(row, stats, row) &&
      this.previous!.mtimeMsOf(row) < this.racyFrom
    );
  }

  /**
   * Settles every row of the previous index from its new stats (listings trusted): a row whose stamp did not move
   * stays, one that moved is read again, one whose path is gone (or holds another kind of thing now) goes. Returns
   * the directories to list again: those that moved, and the parents of what went.
   */
  private settleKnownRows(): string[] {
    const previous = this.previous!;
    const stats = this.previousStats!;
    const relist = new Set<string>();
    // Directories that went (or hold another kind of thing now): whatever is found below them was reached through
    // something else, a link, and is not the workspace's.
    const gone = new Set<string>();
    for (let row = 0; row < previous.count; row += 1) {
      if (previous.kindOf(row) === ROW_DIR && !(stats.has(row) && stats.type(row) === FileType.DIRECTORY))
        gone.add(previous.paths[row]!);
    }
    for (let row = 0; row < previous.count; row += 1) {
      const kind = previous.kindOf(row);
      if (
        !stats.has(row) ||
        !sameKind(kind, stats.type(row)) ||
        (gone.size > 0 && below(previous.paths[row]!, gone)) ||
        this.excluded(previous.paths[row]!)
      ) {
        const path = previous.paths[row]!;
        this.remove(row);
        // Its parent moved too; listing it again does not rely on that.
        if (path !== '') relist.add(parentOf(path));
        continue;
      }
      // Most rows: the same stamp, old enough to be trusted. Nothing to do (and no stats object made).
      const sameStamp = previous.sameStampIn(row, stats, row);
      if (sameStamp && previous.mtimeMsOf(row) < this.racyFrom) {
        this.settled[row] = 1;
        continue;
      }
      const path = previous.paths[row]!;
      if (kind === ROW_DIR) {
        relist.add(path);
        if (sameStamp) this.racyRead = true;
      }
      this.visit(path, stats.at(row)!, row, kind === ROW_RULES);
    }
    return [...relist].filter((dir) => this.changes.get(dir) !== null);
  }

  /**
   * Lists `directories`, and every new directory met in them, a level at a time: each entry the ignore rules keep
   * is lstat'ed (all of a level together) and visited. `trusted`: the known rows were settled already, so only new
   * paths are visited, and an ignore file appearing in or leaving a known directory stops the scan (its rules may
   * change what the trusted listings below hold).
   */
  private async walk(directories: string[], trusted: boolean): Promise<'rules-changed' | undefined> {
    const previous = this.previous;
    // A name that is not UTF-8 is listed by its byte escapes, but a backend without `byteNames` (SSH) cannot be sent
    // it back: it can be neither stat'ed nor rewound, and is left out, as Grep leaves it out (docs/paths.md).
    const unreachable = (name: string) => !this.request.fs.capabilities.byteNames && hasLoneSurrogate(name);
    let queue = directories;
    while (queue.length > 0) {
      const found: Found[] = [];
      let rulesChanged = false;
      await eachLimited(queue, LIST_CONCURRENCY, async (dir) => {
        const entries = await this.request.fs.readdir(this.absolute(dir));
        const ignoreFiles = IGNORE_FILE_NAMES.filter((name) => entries.some((entry) => entry.name === name));
        const known = this.ignoreNames.get(dir) ?? [];
        if (trusted && previous!.rowOf(dir) !== undefined) {
          if (ignoreFiles.length !== known.length || ignoreFiles.some((name) => !known.includes(name)))
            rulesChanged = true;
        }
        this.ignoreNames.set(dir, ignoreFiles);
        const ignored = ignoredEntryTest(dir, await this.levelsOf(dir));
        for (const entry of entries) {
          const name = entry.name;
          if (isAtomicTempName(name) || isLockFileName(name) || unreachable(name)) continue;
          const isIgnored = ignored(name, entry.isDirectory());
          if (isIgnored && !ignoreFiles.includes(name)) continue;
          const path = dir === '' ? name : `${dir}/${name}`;
          if (path === this.request.exclude) continue;
          const row = previous?.rowOf(path);
          // Settled from its stats already: still there as the same kind of thing.
          if (trusted && row !== undefined && this.changes.get(path) !== null) continue;
          found.push({ path, ignoredRules: isIgnored });
        }
      });
      if (rulesChanged) return 'rules-changed';
      const stats = await this.statsOf(found.map((item) => item.path));
      const next: string[] = [];
      for (let at = 0; at < found.length; at += 1) {
        const { path, ignoredRules } = found[at]!;
        const seen = stats[at];
        if (seen === undefined || kindOfStats(seen) === undefined) continue;
        if (ignoredRules && !seen.isFile()) continue;
        this.visit(path, seen, previous?.rowOf(path), ignoredRules);
        if (seen.isDirectory()) next.push(path);
      }
      queue = next;
    }
    return undefined;
  }

  /** The stats of paths: from the lstat of the previous index's rows where it had them, the others lstat'ed now. */
  private async statsOf(paths: readonly string[]): Promise<Array<FileStats | undefined>> {
    const stats = new Array<FileStats | undefined>(paths.length);
    const missing: number[] = [];
    for (let at = 0; at < paths.length; at += 1) {
      const row = this.previous?.rowOf(paths[at]!);
      if (row !== undefined && this.previousStats!.has(row)) stats[at] = this.previousStats!.at(row);
      else missing.push(at);
    }
    const fresh = await lstatMany(
      this.request.fs,
      this.request.root,
      missing.map((at) => paths[at]!),
    );
    for (let at = 0; at < missing.length; at += 1) stats[missing[at]!] = fresh.at(at);
    return stats;
  }

  private isIgnoreFile(path: string): boolean {
    // Most paths are not named like one: that is checked first, without slicing the path.
    if (!IGNORE_FILE_NAMES.some((name) => path.endsWith(name))) return false;
    return path !== '' && (this.ignoreNames.get(parentOf(path)) ?? []).includes(nameOf(path));
  }

  /** The ignore levels that apply to the entries of `dir`: its ancestors' and its own ignore files' rules. */
  private levelsOf(dir: string): Promise<readonly IgnoreLevel[]> {
    let levels = this.levels.get(dir);
    if (levels === undefined) {
      levels = (async () => {
        const above = dir === '' ? [] : await this.levelsOf(parentOf(dir));
        const names = this.ignoreNames.get(dir) ?? [];
        if (names.length === 0) return above;
        const rules = await loadIgnoreRules(
          this.request.fs,
          this.absolute(dir),
          names,
          this.request.ruleCache ? { cache: this.request.ruleCache } : {},
        );
        return rules === null ? above : [...above, levelForDirectory(rules, dir)];
      })();
      this.levels.set(dir, levels);
    }
    return levels;
  }

  /**
   * Deals with one path met with `stats` (`row`: its row in the previous index): it keeps its row when that is the
   * same kind of row with the same stamp, not racy; otherwise a file is read (a link's target too) into a new row.
   */
  private visit(path: string, stats: FileStats, row: number | undefined, ignoredRules: boolean): void {
    const previous = this.previous;
    if (row !== undefined) this.settled[row] = 1;
    const ignoreFile = this.isIgnoreFile(path);
    let kind = kindOfStats(stats)!;
    if (kind === ROW_FILE && ignoredRules) kind = ROW_RULES;
    else if (kind === ROW_FILE && stats.size > this.request.maxFileBytes) kind = ROW_LARGE;
    const kept =
      row !== undefined &&
      previous!.kindOf(row) === kind &&
      previous!.isIgnoreFile(row) === ignoreFile &&
      previous!.sameStamp(row, stats);
    if (kept) {
      // A directory's listing, a large file's stamp and ignored rules are all there is to know: nothing to read.
      if (previous!.mtimeMsOf(row) < this.racyFrom || (kind !== ROW_FILE && kind !== ROW_LINK)) {
        if (previous!.mtimeMsOf(row) >= this.racyFrom) this.racyRead = true;
        if (this.changes.get(path) === null) this.changes.delete(path);
        return;
      }
      this.racyRead = true;
    }
    if (kind === ROW_FILE || kind === ROW_LINK) this.toRead.push({ path, stats, row });
    else this.changes.set(path, rowOfStats(path, kind, stats, ignoreFile));
  }

  private remove(row: number): void {
    this.settled[row] = 1;
    this.changes.set(this.previous!.paths[row]!, null);
  }

  /** Reads every file (hashed, and stored by a storing scan) and link to read, a bounded number at a time. */
  private async readAll(): Promise<void> {
    await eachLimited(this.toRead, HASH_CONCURRENCY, async ({ path, stats, row }) => {
      const ignoreFile = this.isIgnoreFile(path);
      let read: IndexRow | undefined;
      if (stats.isSymbolicLink()) {
        const target = await this.request.fs.readlink(this.absolute(path));
        read = { ...rowOfStats(path, ROW_LINK, stats, ignoreFile), target };
      } else read = await this.readFile(path, ignoreFile);
      if (read) this.changes.set(path, read);
      else if (row !== undefined) this.remove(row);
    });
  }

  /**
   * Reads and hashes one file on its open descriptor (`undefined` when it is gone, or no longer a file). The stamp
   * is taken before the bytes are read, so a change made meanwhile leaves a stamp older than the file and the next
   * scan reads it again.
   */
  private async readFile(path: string, ignoreFile: boolean): Promise<IndexRow | undefined> {
    let handle;
    try {
      handle = await this.request.fs.open(this.absolute(path), 'read');
    } catch (error) {
      if (hasErrno(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) return undefined;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return undefined;
      if (stats.size > this.request.maxFileBytes) return rowOfStats(path, ROW_LARGE, stats, ignoreFile);
      const bytes = await readHandleUpTo(handle, Number.MAX_SAFE_INTEGER, stats.size + 1);
      const hash = createContentHasher().update(bytes).digest('hex');
      await this.request.store?.(hash, bytes, path);
      return { ...rowOfStats(path, ROW_FILE, stats, ignoreFile), hash };
    } finally {
      await handle.close();
    }
  }

  /** The new index, and which manifest entries changed. */
  private result(): ScanResult {
    const previous = this.previous;
    const changed: string[] = [];
    for (const [path, row] of this.changes) {
      const before = previous?.rowOf(path);
      const old = before === undefined ? undefined : previous!.entryOf(before);
      if (!sameContent(old, row === null ? undefined : entryOfRow(row))) changed.push(path);
    }
    changed.sort();
    const header: IndexHeader = {
      root: this.request.root,
      backend: this.request.fs.name,
      manifest: previous?.header.manifest ?? '',
      scannedAtMs: this.scannedAtMs,
    };
    if (previous === undefined) {
      const rows = [...this.changes.values()].filter((row): row is IndexRow => row !== null);
      rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { index: StampIndex.fromRows(header, rows), changed, rewritten: true };
    }
    const rewritten = this.changes.size > 0 || this.racyRead;
    return {
      index: rewritten ? previous.withChanges(header, this.changes) : previous,
      changed,
      rewritten,
    };
  }
}
