import { isAscii, isUtf8 } from 'node:buffer';
import os from 'node:os';
import {
  bytesOfName,
  hasLoneSurrogate,
  mayHaveLostBytes,
  nameFromBytes,
  WideField,
  type FileStats,
  type StatsTable,
} from '@kimi-tools/core/fs';
import { crc32 } from 'node:zlib';
import type { ManifestEntry } from './manifest.js';

/** What a row of the index is. */
export const ROW_FILE = 1;
/** A file over the size limit (its stamp is recorded, its content is not). */
export const ROW_LARGE = 2;
export const ROW_LINK = 3;
export const ROW_DIR = 4;
/** An ignore file the ignore rules themselves leave out: not in the manifest, but its rules count. */
export const ROW_RULES = 5;

/** Row flags: the row is an ignore file; and which of the 64-bit stamp fields the backend gave. */
const FLAG_IGNORE_FILE = 1;
const FLAG_MTIME_NS = 2;
const FLAG_CTIME_NS = 4;
const FLAG_INO = 8;
const FLAG_DEV = 16;

/** One path as a scan saw it: what it is, its stamp, and its content (a file's hash, a link's target). */
export interface IndexRow {
  /** Relative to the workspace root; `''` is the root itself. */
  path: string;
  kind: number;
  /** A `.gitignore` or `.ignore` whose rules the scan applied. */
  ignoreFile: boolean;
  /** Permission bits. */
  mode: number;
  size: number;
  mtimeMs: number;
  mtimeNs?: bigint;
  ctimeNs?: bigint;
  ino?: bigint;
  dev?: bigint;
  /** A file's SHA-256 (hex). */
  hash?: string;
  /** A link's target text. */
  target?: string;
}

/** What the index was made for: a workspace, a backend, and the checkpoint whose manifest it matches. */
export interface IndexHeader {
  root: string;
  backend: string;
  /** The manifest object of the newest checkpoint when the index was written. */
  manifest: string;
  /**
   * When the scan that made the index began, on the clock that stamps the workspace's files (the backend's `now()`,
   * else `Date.now()`): files modified close before it are read again.
   */
  scannedAtMs: number;
}

const MAGIC = Buffer.from('KTSI');

/** The header of a manifest (see {@link StampIndex.manifest}): it belongs to no workspace and no scan. */
const MANIFEST_HEADER: IndexHeader = { root: '', backend: '', manifest: '', scannedAtMs: 0 };
/**
 * Version 3 writes a name that is not UTF-8 as its own bytes (docs/paths.md#names-that-are-not-utf-8); version 2 (read
 * too) wrote its byte escapes as U+FFFD, and writes a column of zeros only (a manifest's stamps) empty; version 1 (read
 * too) wrote it whole.
 */
const VERSION = 3;
const READABLE_VERSIONS = [1, 2, 3];
/** The first version whose U+FFFD in a path is a real U+FFFD, never a byte that was not UTF-8. */
const NAMES_AS_BYTES = 3;
/** The version an index is written as when version 3 would say nothing more: every earlier release reads it. */
const ALL_RELEASES_READ = 2;
/** U+FFFD in UTF-8. */
const REPLACEMENT_BYTES = Buffer.from('\ufffd');

/**
 * The version of an index whose paths are `pathBytes`: 3 only when a path holds a byte that is not UTF-8 or a real
 * U+FFFD, which version 2 cannot tell apart; else 2, the same bytes, so that a store stays readable by an earlier
 * release (one of those read version 3 as a damaged store).
 */
function versionFor(pathBytes: Buffer): number {
  if (isAscii(pathBytes)) return ALL_RELEASES_READ;
  return isUtf8(pathBytes) && !pathBytes.includes(REPLACEMENT_BYTES) ? ALL_RELEASES_READ : NAMES_AS_BYTES;
}

/** The sections of the 64-bit stamp columns (mtimeMs to devs): written empty when all zero. */
const FIRST_STAMP_SECTION = 5;
const LAST_STAMP_SECTION = 9;

/** A row's stamp as a string: what a large file's manifest entry keeps to tell its versions apart. */
export function stampText(row: IndexRow): string {
  return [row.size, row.mtimeMs, row.mtimeNs ?? '', row.ctimeNs ?? '', row.ino ?? '', row.dev ?? ''].join(
    ':',
  );
}

/** The manifest entry of a row; `undefined` for the root and for an ignore file the rules leave out. */
export function entryOfRow(row: IndexRow): ManifestEntry | undefined {
  if (row.path === '' || row.kind === ROW_RULES) return undefined;
  if (row.kind === ROW_FILE) return { type: 'file', hash: row.hash!, size: row.size, mode: row.mode };
  if (row.kind === ROW_LARGE) return { type: 'large', size: row.size, mode: row.mode, stamp: stampText(row) };
  if (row.kind === ROW_LINK) return { type: 'link', target: row.target! };
  return { type: 'dir', mode: row.mode };
}

/** The index row of stats seen at `path` (without its content). */
export function rowOfStats(path: string, kind: number, stats: FileStats, ignoreFile = false): IndexRow {
  const row: IndexRow = {
    path,
    kind,
    ignoreFile,
    mode: stats.mode & 0o7777,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
  if (stats.mtimeNs !== undefined) row.mtimeNs = stats.mtimeNs;
  if (stats.ctimeNs !== undefined) row.ctimeNs = stats.ctimeNs;
  if (stats.ino !== undefined) row.ino = stats.ino;
  if (stats.dev !== undefined) row.dev = stats.dev;
  return row;
}

/**
 * The index of the last checkpoint's scan: every path it tracked (and the root, and ignored ignore files), sorted,
 * with its stamp and its content, in columns. The next scan lstat's these paths and reads again only what moved. One
 * file in the store (`index`), checked by a CRC-32: a damaged or stale index is no index, never a wrong answer.
 */
export class StampIndex {
  private constructor(
    readonly header: IndexHeader,
    readonly paths: string[],
    private readonly kinds: Uint8Array,
    private readonly flags: Uint8Array,
    private readonly modes: Uint32Array,
    private readonly sizes: Float64Array,
    private readonly mtimeMs: Float64Array,
    private readonly mtimeNs: BigInt64Array,
    private readonly ctimeNs: BigInt64Array,
    private readonly inos: BigInt64Array,
    private readonly devs: BigInt64Array,
    private readonly hashes: Buffer,
    private readonly targets: Map<number, string>,
  ) {}

  /** The encoded paths section, kept from a decode (or an index with the same paths): encoding it is the cost. */
  private pathBytes: Buffer | undefined;

  /** The version that wrote the index read (this one's for an index made here). */
  private version = VERSION;

  /**
   * Whether a path may stand for another name than the one on the disk: one of an index written before names that
   * are not UTF-8 were written as their bytes holds U+FFFD, which may have been any such byte. Such an index is no
   * index for a scan (its names are listed again); a manifest read so is what that checkpoint recorded.
   */
  get mayHaveLostNames(): boolean {
    return this.version < NAMES_AS_BYTES && this.paths.some(mayHaveLostBytes);
  }

  get count(): number {
    return this.paths.length;
  }

  /** An index of rows sorted by path. */
  static fromRows(header: IndexHeader, rows: readonly IndexRow[]): StampIndex {
    const index = StampIndex.allocate(header, rows.length);
    for (let row = 0; row < rows.length; row += 1) index.setRow(row, rows[row]!);
    return index;
  }

  /** An index of `n` empty rows. */
  private static allocate(header: IndexHeader, n: number): StampIndex {
    return new StampIndex(
      header,
      new Array<string>(n),
      new Uint8Array(n),
      new Uint8Array(n),
      new Uint32Array(n),
      new Float64Array(n),
      new Float64Array(n),
      new BigInt64Array(n),
      new BigInt64Array(n),
      new BigInt64Array(n),
      new BigInt64Array(n),
      Buffer.alloc(n * 32),
      new Map(),
    );
  }

  /** This index with `changes` made (a row put in, or taken out for `null`), and another header. */
  withChanges(header: IndexHeader, changes: ReadonlyMap<string, IndexRow | null>): StampIndex {
    const rows: number[] = [];
    for (const [path, row] of changes) {
      const at = row === null ? undefined : this.rowOf(path);
      if (at === undefined) return this.withRowsMoved(header, changes);
      rows.push(at);
    }
    // Rows replaced only (the common case: files that changed in place): the columns copied whole.
    const result = new StampIndex(
      header,
      this.paths.slice(),
      this.kinds.slice(),
      this.flags.slice(),
      this.modes.slice(),
      this.sizes.slice(),
      this.mtimeMs.slice(),
      this.mtimeNs.slice(),
      this.ctimeNs.slice(),
      this.inos.slice(),
      this.devs.slice(),
      Buffer.from(this.hashes),
      new Map(this.targets),
    );
    result.pathBytes = this.pathBytes;
    let next = 0;
    for (const row of changes.values()) {
      const at = rows[next++]!;
      result.targets.delete(at);
      result.hashes.fill(0, at * 32, at * 32 + 32);
      result.mtimeNs[at] = 0n;
      result.ctimeNs[at] = 0n;
      result.inos[at] = 0n;
      result.devs[at] = 0n;
      result.setRow(at, row!);
    }
    return result;
  }

  /** {@link withChanges} where rows are added or removed: runs of this index's rows copied between the new ones. */
  private withRowsMoved(header: IndexHeader, changes: ReadonlyMap<string, IndexRow | null>): StampIndex {
    const changed = [...changes.keys()].sort();
    // The new rows in order: runs of this index's rows kept as they are, and rows put in.
    const runs: Array<{ start: number; end: number } | IndexRow> = [];
    let next = 0;
    let runStart = 0;
    let count = 0;
    const put = (row: IndexRow | null | undefined) => {
      if (row) {
        runs.push(row);
        count += 1;
      }
    };
    const closeRun = (end: number) => {
      if (end > runStart) {
        runs.push({ start: runStart, end });
        count += end - runStart;
      }
    };
    for (let row = 0; row < this.count && next < changed.length; row += 1) {
      const path = this.paths[row]!;
      if (changed[next]! > path) continue;
      closeRun(row);
      while (next < changed.length && changed[next]! < path) put(changes.get(changed[next++]!));
      if (next < changed.length && changed[next] === path) {
        put(changes.get(changed[next++]!));
        runStart = row + 1;
      } else runStart = row;
    }
    closeRun(this.count);
    while (next < changed.length) put(changes.get(changed[next++]!));
    const result = StampIndex.allocate(header, count);
    let at = 0;
    for (const run of runs) {
      if ('path' in run) result.setRow(at++, run);
      else {
        result.copyRows(at, this, run.start, run.end);
        at += run.end - run.start;
      }
    }
    // The link targets of the rows copied (a row put in brought its own).
    for (const [row, target] of this.targets) {
      const path = this.paths[row]!;
      if (changes.has(path)) continue;
      result.targets.set(result.rowOf(path)!, target);
    }
    return result;
  }

  /** The same rows under another header. */
  withHeader(header: IndexHeader): StampIndex {
    const index = new StampIndex(
      header,
      this.paths,
      this.kinds,
      this.flags,
      this.modes,
      this.sizes,
      this.mtimeMs,
      this.mtimeNs,
      this.ctimeNs,
      this.inos,
      this.devs,
      this.hashes,
      this.targets,
    );
    index.pathBytes = this.pathBytes;
    return index;
  }

  /** Whether row `row` is in the manifest (not the root, not an ignore file the rules leave out). */
  inManifest(row: number): boolean {
    return this.kinds[row] !== ROW_RULES && this.paths[row] !== '';
  }

  /** Whether row `row` holds what row `otherRow` of `other` does (see `sameContent` of manifest.ts). */
  sameContentAt(row: number, other: StampIndex, otherRow: number): boolean {
    const kind = this.kinds[row];
    if (kind !== other.kinds[otherRow]) return false;
    switch (kind) {
      case ROW_FILE: {
        if (this.modes[row] !== other.modes[otherRow]) return false;
        // The hashes as eight 32-bit words each: a call of Buffer.compare per row cost more than the walk.
        const mine = this.hashWords();
        const theirs = other.hashWords();
        for (let word = 0; word < 8; word += 1)
          if (mine[row * 8 + word] !== theirs[otherRow * 8 + word]) return false;
        return true;
      }
      case ROW_LINK:
        return this.targets.get(row) === other.targets.get(otherRow);
      case ROW_LARGE:
        return (
          this.modes[row] === other.modes[otherRow] &&
          stampText(this.row(row)) === stampText(other.row(otherRow))
        );
      default:
        return this.modes[row] === other.modes[otherRow];
    }
  }

  /** The hashes column as 32-bit words. */
  private hashWordsView: Int32Array | undefined;

  private hashWords(): Int32Array {
    if (this.hashWordsView === undefined) {
      const hashes = this.hashes.byteOffset % 4 === 0 ? this.hashes : Buffer.from(this.hashes);
      this.hashWordsView = new Int32Array(hashes.buffer, hashes.byteOffset, hashes.length / 4);
    }
    return this.hashWordsView;
  }

  /** The row of the workspace root (sorted first: its path is `''`), or `undefined`. */
  rootRow(): number | undefined {
    return this.paths[0] === '' ? 0 : undefined;
  }

  /** The row of `path`, or `undefined` (a binary search: the rows are sorted by path). */
  rowOf(path: string): number | undefined {
    let low = 0;
    let high = this.paths.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.paths[middle]!;
      if (at === path) return middle;
      if (at < path) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /**
   * The paths whose stamp has inode `ino` on device `dev`: the names of one file (hard links) the scan saw. Empty
   * where the backend reports no inodes.
   */
  namesOfFile(ino: bigint, dev: bigint): string[] {
    const names: string[] = [];
    // As the columns hold them (64-bit signed).
    const [wantIno, wantDev] = [BigInt.asIntN(64, ino), BigInt.asIntN(64, dev)];
    for (let row = 0; row < this.paths.length; row += 1) {
      const flags = this.flags[row]!;
      const known = (flags & FLAG_INO) !== 0 && (flags & FLAG_DEV) !== 0;
      if (known && this.inos[row] === wantIno && this.devs[row] === wantDev) names.push(this.paths[row]!);
    }
    return names;
  }

  kindOf(row: number): number {
    return this.kinds[row]!;
  }

  isIgnoreFile(row: number): boolean {
    return (this.flags[row]! & FLAG_IGNORE_FILE) !== 0;
  }

  mtimeMsOf(row: number): number {
    return this.mtimeMs[row]!;
  }

  /** A file's hash (hex). */
  hashOf(row: number): string {
    return this.hashes.toString('hex', row * 32, row * 32 + 32);
  }

  /** Whether `stats` are the stamp of row `row`: same size, permission bits and times, same inode (what is known). */
  sameStamp(row: number, stats: FileStats): boolean {
    const flags = this.flags[row]!;
    return (
      stats.size === this.sizes[row] &&
      (stats.mode & 0o7777) === this.modes[row] &&
      stats.mtimeMs === this.mtimeMs[row] &&
      (stats.mtimeNs === undefined
        ? (flags & FLAG_MTIME_NS) === 0
        : (flags & FLAG_MTIME_NS) !== 0 && stats.mtimeNs === this.mtimeNs[row]) &&
      (stats.ctimeNs === undefined
        ? (flags & FLAG_CTIME_NS) === 0
        : (flags & FLAG_CTIME_NS) !== 0 && stats.ctimeNs === this.ctimeNs[row]) &&
      (stats.ino === undefined
        ? (flags & FLAG_INO) === 0
        : (flags & FLAG_INO) !== 0 && stats.ino === this.inos[row]) &&
      (stats.dev === undefined
        ? (flags & FLAG_DEV) === 0
        : (flags & FLAG_DEV) !== 0 && stats.dev === this.devs[row])
    );
  }

  /** The 64-bit stamp columns as 32-bit words, for comparing with a {@link StatsTable} in place. */
  private words: { mtimeNs: Int32Array; ctimeNs: Int32Array; ino: Int32Array; dev: Int32Array } | undefined;

  /** {@link sameStamp} with the stats of entry `at` of a table, compared in place (no bigint, no object made). */
  sameStampIn(row: number, table: StatsTable, at: number): boolean {
    const flags = this.flags[row]!;
    const words = (this.words ??= {
      mtimeNs: wordsOf(this.mtimeNs),
      ctimeNs: wordsOf(this.ctimeNs),
      ino: wordsOf(this.inos),
      dev: wordsOf(this.devs),
    });
    return (
      table.size(at) === this.sizes[row] &&
      (table.mode(at) & 0o7777) === this.modes[row] &&
      table.mtimeMs(at) === this.mtimeMs[row] &&
      (flags & FLAG_MTIME_NS
        ? table.sameWide(at, WideField.mtimeNs, words.mtimeNs, row)
        : !table.hasWide(at, WideField.mtimeNs)) &&
      (flags & FLAG_CTIME_NS
        ? table.sameWide(at, WideField.ctimeNs, words.ctimeNs, row)
        : !table.hasWide(at, WideField.ctimeNs)) &&
      (flags & FLAG_INO
        ? table.sameWide(at, WideField.ino, words.ino, row)
        : !table.hasWide(at, WideField.ino)) &&
      (flags & FLAG_DEV
        ? table.sameWide(at, WideField.dev, words.dev, row)
        : !table.hasWide(at, WideField.dev))
    );
  }

  /** Row `row` as an object. */
  row(row: number): IndexRow {
    const flags = this.flags[row]!;
    const result: IndexRow = {
      path: this.paths[row]!,
      kind: this.kinds[row]!,
      ignoreFile: (flags & FLAG_IGNORE_FILE) !== 0,
      mode: this.modes[row]!,
      size: this.sizes[row]!,
      mtimeMs: this.mtimeMs[row]!,
    };
    if (flags & FLAG_MTIME_NS) result.mtimeNs = this.mtimeNs[row]!;
    if (flags & FLAG_CTIME_NS) result.ctimeNs = this.ctimeNs[row]!;
    if (flags & FLAG_INO) result.ino = this.inos[row]!;
    if (flags & FLAG_DEV) result.dev = this.devs[row]!;
    if (result.kind === ROW_FILE) result.hash = this.hashOf(row);
    if (result.kind === ROW_LINK) result.target = this.targets.get(row)!;
    return result;
  }

  /** The manifest entry of row `row`; `undefined` for the root and for an ignore file the rules leave out. */
  entryOf(row: number): ManifestEntry | undefined {
    const kind = this.kinds[row]!;
    if (this.paths[row] === '' || kind === ROW_RULES) return undefined;
    if (kind === ROW_FILE)
      return { type: 'file', hash: this.hashOf(row), size: this.sizes[row]!, mode: this.modes[row]! };
    if (kind === ROW_LARGE)
      return {
        type: 'large',
        size: this.sizes[row]!,
        mode: this.modes[row]!,
        stamp: stampText(this.row(row)),
      };
    if (kind === ROW_LINK) return { type: 'link', target: this.targets.get(row)! };
    return { type: 'dir', mode: this.modes[row]! };
  }

  /** The manifest: every tracked path and its entry, sorted by path. */
  *manifestEntries(): Generator<readonly [string, ManifestEntry]> {
    for (let row = 0; row < this.count; row += 1) {
      const entry = this.entryOf(row);
      if (entry !== undefined) yield [this.paths[row]!, entry];
    }
  }

  /**
   * The manifest: the rows it holds (not the root, not the ignore files the rules leave out), with what they hold
   * and no stamp (but a large file's, which stands for its content). Its encoding is the store's manifest object:
   * the same rows make the same bytes.
   */
  manifest(): StampIndex {
    const rows: number[] = [];
    for (let row = 0; row < this.count; row += 1) if (this.inManifest(row)) rows.push(row);
    const manifest = StampIndex.allocate(MANIFEST_HEADER, rows.length);
    // The rows in runs (only the root and ignored ignore files break them), then the stamps wiped.
    for (let at = 0; at < rows.length;) {
      let end = at + 1;
      while (end < rows.length && rows[end] === rows[end - 1]! + 1) end += 1;
      manifest.copyRows(at, this, rows[at]!, rows[end - 1]! + 1);
      at = end;
    }
    for (const [row, target] of this.targets) manifest.targets.set(manifest.rowOf(this.paths[row]!)!, target);
    manifest.mtimeMs.fill(0);
    manifest.mtimeNs.fill(0n);
    manifest.ctimeNs.fill(0n);
    manifest.inos.fill(0n);
    manifest.devs.fill(0n);
    for (let at = 0; at < rows.length; at += 1) {
      const kind = manifest.kinds[at]!;
      if (kind === ROW_LARGE) {
        // A large file's stamp stands for its content.
        const row = rows[at]!;
        manifest.flags[at] = this.flags[row]! & ~FLAG_IGNORE_FILE;
        manifest.mtimeMs[at] = this.mtimeMs[row]!;
        manifest.mtimeNs[at] = this.mtimeNs[row]!;
        manifest.ctimeNs[at] = this.ctimeNs[row]!;
        manifest.inos[at] = this.inos[row]!;
        manifest.devs[at] = this.devs[row]!;
        continue;
      }
      manifest.flags[at] = 0;
      if (kind !== ROW_FILE) manifest.sizes[at] = 0;
      if (kind === ROW_LINK) manifest.modes[at] = 0;
    }
    manifest.pathBytes = this.pathBytesOfRows(rows);
    return manifest;
  }

  /**
   * The encoded paths of `rows` (sorted), cut out of this index's encoded paths where it has them: joining 63,000
   * paths again cost a checkpoint more than copying their rows. The rows left out (the root, ignored ignore files) are
   * few, each found by its path between separators.
   */
  private pathBytesOfRows(rows: readonly number[]): Buffer | undefined {
    const bytes = this.pathBytes;
    if (bytes === undefined || rows.length === 0) return undefined;
    const kept = new Uint8Array(this.count);
    for (const row of rows) kept[row] = 1;
    const parts: Buffer[] = [];
    let from = 0;
    for (let row = 0; row < this.count; row += 1) {
      if (kept[row]) continue;
      const encoded = encodedPath(this.paths[row]!);
      let start: number;
      if (row === 0) start = 0;
      else {
        const found = bytes.indexOf(Buffer.concat([NUL, encoded, NUL]));
        start = found !== -1 ? found + 1 : bytes.length - encoded.length;
      }
      const end = start + encoded.length;
      // A row and the separator after it; the last row, with the one before it.
      if (row < this.count - 1) {
        parts.push(bytes.subarray(from, start));
        from = end + 1;
      } else {
        parts.push(bytes.subarray(from, Math.max(from, start - 1)));
        from = bytes.length;
      }
    }
    parts.push(bytes.subarray(from));
    return Buffer.concat(parts);
  }

  /** The contents the manifest refers to (the files' hashes), with their sizes. */
  contents(): Map<string, number> {
    const sizes = new Map<string, number>();
    for (let row = 0; row < this.count; row += 1)
      if (this.kinds[row] === ROW_FILE) sizes.set(this.hashOf(row), this.sizes[row]!);
    return sizes;
  }

  /** The manifest entry of `path`, if the manifest has it. */
  entryAt(path: string): ManifestEntry | undefined {
    const row = this.rowOf(path);
    return row === undefined ? undefined : this.entryOf(row);
  }

  /**
   * The file's bytes: the header, then the columns (each its length, then its bytes from an offset that is a
   * multiple of 8, so that a reader can view them in place), then a CRC-32 of everything before it.
   */
  encode(): Buffer {
    const header = Buffer.from(JSON.stringify({ ...this.header, endianness: os.endianness() }));
    this.pathBytes ??= encodedPath(this.paths.join('\0'));
    const columns: ArrayBufferView[] = [
      this.pathBytes,
      this.kinds,
      this.flags,
      this.modes,
      this.sizes,
      this.mtimeMs,
      this.mtimeNs,
      this.ctimeNs,
      this.inos,
      this.devs,
      this.hashes,
      Buffer.from(JSON.stringify([...this.targets])),
    ];
    const sections = columns.map((column, at) =>
      at >= FIRST_STAMP_SECTION && at <= LAST_STAMP_SECTION && allZero(column)
        ? new Uint8Array(0)
        : new Uint8Array(column.buffer, column.byteOffset, column.byteLength),
    );
    let length = 16 + header.length;
    for (const section of sections) length += 4 + sectionPadding(length) + section.byteLength;
    // One buffer, written once (the bench index is 11 MB): the padding zeroed, the CRC-32 last.
    const bytes = Buffer.allocUnsafe(length + 4);
    MAGIC.copy(bytes, 0);
    bytes.writeUInt32LE(versionFor(this.pathBytes), 4);
    bytes.writeUInt32LE(this.count, 8);
    bytes.writeUInt32LE(header.length, 12);
    header.copy(bytes, 16);
    let at = 16 + header.length;
    for (const section of sections) {
      const padding = sectionPadding(at);
      bytes.writeUInt32LE(section.byteLength, at);
      bytes.fill(0, at + 4, at + 4 + padding);
      at += 4 + padding;
      bytes.set(section, at);
      at += section.byteLength;
    }
    bytes.writeUInt32LE(crc32(bytes.subarray(0, length)), length);
    return bytes;
  }

  /**
   * The index in `bytes`, or `undefined` when they are not a whole index of this version. Its columns are views of
   * `bytes` where they are aligned (a file read whole is), else copies.
   */
  static decode(bytes: Buffer): StampIndex | undefined {
    try {
      return StampIndex.read(bytes);
    } catch {
      // Whole (the CRC-32 holds) but not laid out as this version writes: not an index.
      return undefined;
    }
  }

  private static read(bytes: Buffer): StampIndex | undefined {
    if (
      bytes.length < 20 ||
      !bytes.subarray(0, 4).equals(MAGIC) ||
      !READABLE_VERSIONS.includes(bytes.readUInt32LE(4))
    )
      return undefined;
    if (crc32(bytes.subarray(0, bytes.length - 4)) !== bytes.readUInt32LE(bytes.length - 4)) return undefined;
    const count = bytes.readUInt32LE(8);
    const headerLength = bytes.readUInt32LE(12);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + headerLength)) as IndexHeader & {
      endianness: string;
    };
    if (header.endianness !== os.endianness()) return undefined;
    const aligned = bytes.byteOffset % 8 === 0;
    let at = 16 + headerLength;
    const section = (): { buffer: ArrayBuffer; byteOffset: number; byteLength: number } => {
      const byteLength = bytes.readUInt32LE(at);
      const start = at + 4 + ((8 - ((at + 4) % 8)) % 8);
      at = start + byteLength;
      if (aligned)
        return { buffer: bytes.buffer as ArrayBuffer, byteOffset: bytes.byteOffset + start, byteLength };
      const copy = bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + byteLength);
      return { buffer: copy as ArrayBuffer, byteOffset: 0, byteLength };
    };
    const bytesOf = ({ buffer, byteOffset, byteLength }: ReturnType<typeof section>) =>
      Buffer.from(buffer, byteOffset, byteLength);
    const pathBytes = bytesOf(section());
    const paths = count === 0 ? [] : decodePaths(pathBytes);
    const kinds = bytesOf(section());
    const flags = bytesOf(section());
    const column = <T>(
      make: new (buffer: ArrayBuffer, byteOffset: number, length: number) => T,
      size: number,
    ) => {
      const { buffer, byteOffset, byteLength } = section();
      // An empty stamp column stands for zeros.
      if (byteLength === 0 && count > 0) return new make(new ArrayBuffer(count * size), 0, count);
      if (byteLength !== count * size) throw new Error('A column does not have a value per row.');
      return new make(buffer, byteOffset, count);
    };
    const modes = column(Uint32Array, 4);
    const sizes = column(Float64Array, 8);
    const mtimeMs = column(Float64Array, 8);
    const mtimeNs = column(BigInt64Array, 8);
    const ctimeNs = column(BigInt64Array, 8);
    const inos = column(BigInt64Array, 8);
    const devs = column(BigInt64Array, 8);
    const hashes = bytesOf(section());
    const targets = new Map(JSON.parse(bytesOf(section()).toString('utf8')) as Array<[number, string]>);
    if (
      paths.length !== count ||
      kinds.length !== count ||
      flags.length !== count ||
      hashes.length !== count * 32
    )
      return undefined;
    const { endianness: _, ...rest } = header;
    const index = new StampIndex(
      rest,
      paths,
      kinds,
      flags,
      modes,
      sizes,
      mtimeMs,
      mtimeNs,
      ctimeNs,
      inos,
      devs,
      hashes,
      targets,
    );
    index.pathBytes = pathBytes;
    index.version = bytes.readUInt32LE(4);
    return index;
  }

  private setRow(at: number, row: IndexRow): void {
    this.paths[at] = row.path;
    this.kinds[at] = row.kind;
    let flags = row.ignoreFile ? FLAG_IGNORE_FILE : 0;
    if (row.mtimeNs !== undefined) {
      flags |= FLAG_MTIME_NS;
      this.mtimeNs[at] = row.mtimeNs;
    }
    if (row.ctimeNs !== undefined) {
      flags |= FLAG_CTIME_NS;
      this.ctimeNs[at] = row.ctimeNs;
    }
    if (row.ino !== undefined) {
      flags |= FLAG_INO;
      this.inos[at] = row.ino;
    }
    if (row.dev !== undefined) {
      flags |= FLAG_DEV;
      this.devs[at] = row.dev;
    }
    this.flags[at] = flags;
    this.modes[at] = row.mode;
    this.sizes[at] = row.size;
    this.mtimeMs[at] = row.mtimeMs;
    if (row.hash !== undefined) this.hashes.write(row.hash, at * 32, 32, 'hex');
    if (row.target !== undefined) this.targets.set(at, row.target);
  }

  /** Copies rows `[start, end)` of `from` to rows from `at` on. */
  private copyRows(at: number, from: StampIndex, start: number, end: number): void {
    for (let row = start; row < end; row += 1) this.paths[at + row - start] = from.paths[row]!;
    this.kinds.set(from.kinds.subarray(start, end), at);
    this.flags.set(from.flags.subarray(start, end), at);
    this.modes.set(from.modes.subarray(start, end), at);
    this.sizes.set(from.sizes.subarray(start, end), at);
    this.mtimeMs.set(from.mtimeMs.subarray(start, end), at);
    this.mtimeNs.set(from.mtimeNs.subarray(start, end), at);
    this.ctimeNs.set(from.ctimeNs.subarray(start, end), at);
    this.inos.set(from.inos.subarray(start, end), at);
    this.devs.set(from.devs.subarray(start, end), at);
    from.hashes.copy(this.hashes, at * 32, start * 32, end * 32);
  }
}

/** A path whose manifest entries differ between two indexes, with its row in each (`undefined`: not there). */
export interface Difference {
  path: string;
  a: number | undefined;
  b: number | undefined;
}

/**
 * The paths whose manifest entries differ from `a` to `b` (sorted, as both are), with their rows: both walked in
 * step, contents compared in place (no entry is made for a path that did not change).
 */
export function differences(
  a: StampIndex,
  b: StampIndex,
  selected: (path: string) => boolean = () => true,
): Difference[] {
  const found: Difference[] = [];
  let i = 0;
  let j = 0;
  const push = (path: string, left: number | undefined, right: number | undefined) => {
    if (selected(path)) found.push({ path, a: left, b: right });
  };
  while (i < a.count || j < b.count) {
    if (i < a.count && !a.inManifest(i)) i += 1;
    else if (j < b.count && !b.inManifest(j)) j += 1;
    else if (i < a.count && j < b.count && a.paths[i] === b.paths[j]) {
      // The same path in both, most often: one comparison of the two strings, not two.
      if (!a.sameContentAt(i, b, j)) push(a.paths[i]!, i, j);
      i += 1;
      j += 1;
    } else if (j >= b.count || (i < a.count && a.paths[i]! < b.paths[j]!)) push(a.paths[i]!, i++, undefined);
    else push(b.paths[j]!, undefined, j++);
  }
  return found;
}

/** A 64-bit column as twice as many 32-bit words, in place. */
function wordsOf(column: BigInt64Array): Int32Array {
  return new Int32Array(column.buffer, column.byteOffset, column.length * 2);
}

const NUL = Buffer.of(0);

/**
 * The bytes of a path (or of paths joined by NUL) in an index: UTF-8, and each byte escape the byte it stands for, so
 * `inv\udcff.txt` is written `inv\xff.txt` and read back as itself, not as U+FFFD. A lone surrogate that stands for no
 * byte (a memory backend's name no tool takes) is written as U+FFFD, as it always was.
 */
function encodedPath(text: string): Buffer {
  return (hasLoneSurrogate(text) && bytesOfName(text)) || Buffer.from(text);
}

/**
 * The paths of an encoded index (see {@link encodedPath}, each ended by the next one's NUL). Decoded as latin1, which
 * is three times as fast and the same text for ASCII, then the few paths with other characters decoded again as the
 * names their bytes stand for: three such paths among 63,000 made all of them cost the slower decoder, and their
 * strings twice the memory.
 */
function decodePaths(bytes: Buffer): string[] {
  const text = bytes.toString('latin1');
  const paths = text.split('\0');
  if (isAscii(bytes)) return paths;
  const wide = /[\x80-\xff]/g;
  let row = 0;
  let rowStart = 0;
  for (let match = wide.exec(text); match !== null; match = wide.exec(text)) {
    while (rowStart + paths[row]!.length < match.index) rowStart += paths[row++]!.length + 1;
    // Latin1 made one character of each byte: the row's length is its byte length.
    const length = paths[row]!.length;
    paths[row] = nameFromBytes(Buffer.from(paths[row]!, 'latin1'));
    rowStart += length + 1;
    row += 1;
    wide.lastIndex = rowStart;
  }
  return paths;
}

/** Bytes of zeros before a section whose length is written at `at`, so that its bytes start at a multiple of 8. */
function sectionPadding(at: number): number {
  return (8 - ((at + 4) % 8)) % 8;
}

/** Whether a 64-bit column holds zeros only. */
function allZero(column: ArrayBufferView): boolean {
  const words = new Int32Array(column.buffer, column.byteOffset, column.byteLength / 4);
  for (let at = 0; at < words.length; at += 1) if (words[at] !== 0) return false;
  return true;
}
