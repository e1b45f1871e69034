import {
  defineRuntimeSlot,
  sameStamp,
  stampNeedsHash,
  type FileStamp,
  type LinePosition,
  type TextEncoding,
} from '@kimi-tools/core/toolkit';

/** Everything one full scan of a file learnt. */
export interface LineIndexData {
  /**
   * The version of the file scanned: its stamp without a hash (size, modification and change times to the
   * nanosecond, inode, device), as the read state tells versions apart; the index of another version is never used.
   */
  version: FileStamp;
  /** Total number of lines (a final line without a break counts). */
  totalLines: number;
  /** Line starts in increasing order, sparse (as the line reader emits them); the first is line 1. */
  checkpoints: readonly LinePosition[];
  /** Content hash (`hashBytes`-compatible) when the scan computed one. */
  hash?: string;
  /** The encoding the file was scanned in: a later read of this version needs no detection. */
  encoding: TextEncoding;
}

/** The line index of one file version: jump close to any line without rescanning. */
export class LineIndex {
  readonly version: FileStamp;
  readonly totalLines: number;
  readonly hash: string | undefined;
  readonly encoding: TextEncoding;
  private readonly lines: Float64Array;
  private readonly offsets: Float64Array;

  constructor(data: LineIndexData) {
    this.version = data.version;
    this.totalLines = data.totalLines;
    this.hash = data.hash;
    this.encoding = data.encoding;
    this.lines = Float64Array.from(data.checkpoints, (point) => point.line);
    this.offsets = Float64Array.from(data.checkpoints, (point) => point.offset);
  }

  /** Number of checkpoints held. */
  get checkpointCount(): number {
    return this.lines.length;
  }

  /** The last checkpoint at or before `line` (line 1 at offset `fallbackOffset` when none is). */
  nearest(line: number, fallbackOffset = 0): LinePosition {
    let low = 0;
    let high = this.lines.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.lines[middle]! <= line) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found < 0) return { line: 1, offset: fallbackOffset };
    return { line: this.lines[found]!, offset: this.offsets[found]! };
  }
}

/** Options of {@link LineIndexStore}. */
export interface LineIndexStoreOptions {
  /** Files remembered at most; the least recently used is dropped first (default 64). */
  maxFiles?: number;
}

/**
 * Line indexes of the files a session scanned, keyed by real path and valid only for the same file version, so a
 * repeated deep read of an unchanged file seeks instead of rescanning. Only versions that their stats tell apart are
 * kept (docs/read-state.md: a file over the hash limit, on a backend with change times and inode numbers): for any
 * other file, stats that did not move cannot vouch for its bytes (a same-size rewrite within one tick, or over SFTP
 * within one second; a write through a shared memory mapping), and a kept index would give a later read the hash and
 * line starts of bytes it no longer holds. Lives in the runtime ({@link LINE_INDEXES}), never in module scope.
 */
export class LineIndexStore {
  private readonly maxFiles: number;
  private readonly indexes = new Map<string, LineIndex>();

  constructor(options: LineIndexStoreOptions = {}) {
    this.maxFiles = Math.max(1, options.maxFiles ?? 64);
  }

  /** The index of `realPath` when it was built for exactly this version of it ({@link sameStamp}). */
  get(realPath: string, version: FileStamp): LineIndex | undefined {
    const index = this.indexes.get(realPath);
    if (!index) return undefined;
    if (!sameStamp(index.version, version)) {
      this.indexes.delete(realPath);
      return undefined;
    }
    // Re-insert to mark it most recently used.
    this.indexes.delete(realPath);
    this.indexes.set(realPath, index);
    return index;
  }

  /**
   * What a full scan of `realPath` learnt, as an index for the read that made it; remembered, replacing any older
   * version, only when the version's stats tell it apart.
   */
  set(realPath: string, data: LineIndexData): LineIndex {
    const index = new LineIndex(data);
    this.indexes.delete(realPath);
    if (stampNeedsHash(data.version)) return index;
    this.indexes.set(realPath, index);
    while (this.indexes.size > this.maxFiles) {
      const oldest = this.indexes.keys().next().value;
      if (oldest === undefined) break;
      this.indexes.delete(oldest);
    }
    return index;
  }

  /** Forgets `realPath`. */
  delete(realPath: string): void {
    this.indexes.delete(realPath);
  }

  /** Number of files indexed. */
  get size(): number {
    return this.indexes.size;
  }
}

/** Each runtime's line indexes: ReadFile's cache, kept per session like the rest of the runtime's state. */
export const LINE_INDEXES = defineRuntimeSlot('read.lineIndexes', () => new LineIndexStore());
