import type { FileStats } from './file-system.js';
import { FileType, isFileType, S_IFMT } from './file-type.js';

// The stats of many paths in columns, as `lstatMany` gives them: a scan of a large workspace compares most of them
// with what it saw before and finds them unchanged, so an object (and four bigints) per path would be made only to be
// dropped. An entry becomes a `FileStats` object only when asked for.

/** Number slots of an entry: size, mode, mtimeMs, nlink, uid, gid. */
const NUMBER_SLOTS = 6;
/** 64-bit slots of an entry (see {@link WideField}). */
const WIDE_SLOTS = 4;

/** Which fields an entry has: a backend leaves out what it cannot know. */
const FOUND = 1;
const HAS_NLINK = 2;
const HAS_OWNER = 4;
/** The bit of wide field `field` is `HAS_WIDE << field`. */
const HAS_WIDE = 8;

/** The 64-bit fields of an entry, by slot. */
export const WideField = { mtimeNs: 0, ctimeNs: 1, ino: 2, dev: 3 } as const;
/** One of {@link WideField}. */
export type WideField = (typeof WideField)[keyof typeof WideField];

const WIDE_NAMES = ['mtimeNs', 'ctimeNs', 'ino', 'dev'] as const;

/**
 * The `lstat` of many paths, one entry per path in order, in typed arrays: `has(i)` says whether anything was there,
 * the numbers are read in place, the 64-bit fields compared in place as two 32-bit words (no bigint is made), and
 * `at(i)` makes the entry's `FileStats` when a caller needs one.
 */
export class StatsTable {
  private readonly numbers: Float64Array;
  private readonly wides: BigInt64Array;
  /** The 64-bit fields as 32-bit words, for comparing without making bigints. */
  private readonly words: Int32Array;
  private readonly fields: Uint8Array;

  constructor(readonly length: number) {
    this.numbers = new Float64Array(length * NUMBER_SLOTS);
    this.wides = new BigInt64Array(length * WIDE_SLOTS);
    this.words = new Int32Array(this.wides.buffer);
    this.fields = new Uint8Array(length);
  }

  /** A table of stats objects (`undefined`: nothing there). */
  static of(entries: ReadonlyArray<FileStats | undefined>): StatsTable {
    const table = new StatsTable(entries.length);
    for (let at = 0; at < entries.length; at += 1) {
      const stats = entries[at];
      if (stats !== undefined) table.setStats(at, stats);
    }
    return table;
  }

  /**
   * Records entry `at` from the fields of an `lstat` that has them all (the local disk's): the fastest way in, for a
   * backend that fills many entries.
   */
  set(
    at: number,
    size: number,
    mode: number,
    mtimeMs: number,
    mtimeNs: bigint,
    ctimeNs: bigint,
    ino: bigint,
    dev: bigint,
    nlink: number,
    uid: number,
    gid: number,
  ): void {
    const n = at * NUMBER_SLOTS;
    const w = at * WIDE_SLOTS;
    this.numbers[n] = size;
    this.numbers[n + 1] = mode;
    this.numbers[n + 2] = mtimeMs;
    this.numbers[n + 3] = nlink;
    this.numbers[n + 4] = uid;
    this.numbers[n + 5] = gid;
    this.wides[w] = mtimeNs;
    this.wides[w + 1] = ctimeNs;
    this.wides[w + 2] = ino;
    this.wides[w + 3] = dev;
    this.fields[at] = FOUND | HAS_NLINK | HAS_OWNER | (0b1111 * HAS_WIDE);
  }

  /** Records entry `at` from a stats object (its absent fields stay absent). */
  setStats(at: number, stats: FileStats): void {
    const n = at * NUMBER_SLOTS;
    this.numbers[n] = stats.size;
    this.numbers[n + 1] = stats.mode;
    this.numbers[n + 2] = stats.mtimeMs;
    let fields = FOUND;
    if (stats.nlink !== undefined) {
      this.numbers[n + 3] = stats.nlink;
      fields |= HAS_NLINK;
    }
    if (stats.uid !== undefined && stats.gid !== undefined) {
      this.numbers[n + 4] = stats.uid;
      this.numbers[n + 5] = stats.gid;
      fields |= HAS_OWNER;
    }
    for (let field = 0; field < WIDE_SLOTS; field += 1) {
      const value = stats[WIDE_NAMES[field]!];
      if (value === undefined) continue;
      this.wides[at * WIDE_SLOTS + field] = value;
      fields |= HAS_WIDE << field;
    }
    this.fields[at] = fields;
  }

  /** Whether anything was at path `at`. */
  has(at: number): boolean {
    return (this.fields[at]! & FOUND) !== 0;
  }

  /** The size of entry `at`, in bytes. */
  size(at: number): number {
    return this.numbers[at * NUMBER_SLOTS]!;
  }

  /** `st_mode`: the type bits and the permission bits. */
  mode(at: number): number {
    return this.numbers[at * NUMBER_SLOTS + 1]!;
  }

  /** The type bits of `st_mode` (`S_IFREG`, `S_IFDIR`, `S_IFLNK`...). */
  type(at: number): number {
    return this.numbers[at * NUMBER_SLOTS + 1]! & S_IFMT;
  }

  /** The modification time of entry `at`, in milliseconds (as fine as the backend's `lstat` gives it). */
  mtimeMs(at: number): number {
    return this.numbers[at * NUMBER_SLOTS + 2]!;
  }

  /** Whether entry `at` has the 64-bit field `field`. */
  hasWide(at: number, field: WideField): boolean {
    return (this.fields[at]! & (HAS_WIDE << field)) !== 0;
  }

  /**
   * Whether entry `at` has the 64-bit field `field` and it equals element `index` of a `BigInt64Array` seen as the
   * 32-bit words `words` (`new Int32Array(array.buffer, array.byteOffset, array.length * 2)`).
   */
  sameWide(at: number, field: WideField, words: Int32Array, index: number): boolean {
    const word = (at * WIDE_SLOTS + field) * 2;
    return (
      (this.fields[at]! & (HAS_WIDE << field)) !== 0 &&
      this.words[word] === words[index * 2] &&
      this.words[word + 1] === words[index * 2 + 1]
    );
  }

  /** Entry `at` as a `FileStats` object, or `undefined` when nothing was there. */
  at(at: number): FileStats | undefined {
    return this.has(at) ? new TableStats(this.numbers, this.wides, this.fields[at]!, at) : undefined;
  }
}

/** One entry of a table as an object: the same fields, and the same values, as the backend's `lstat`. */
class TableStats implements FileStats {
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly mtimeNs?: bigint;
  readonly ctimeNs?: bigint;
  readonly ino?: bigint;
  readonly dev?: bigint;
  readonly nlink?: number;
  readonly uid?: number;
  readonly gid?: number;

  constructor(numbers: Float64Array, wides: BigInt64Array, fields: number, at: number) {
    const n = at * NUMBER_SLOTS;
    const w = at * WIDE_SLOTS;
    this.size = numbers[n]!;
    this.mode = numbers[n + 1]!;
    this.mtimeMs = numbers[n + 2]!;
    if (fields & HAS_NLINK) this.nlink = numbers[n + 3]!;
    if (fields & HAS_OWNER) {
      this.uid = numbers[n + 4]!;
      this.gid = numbers[n + 5]!;
    }
    if (fields & (HAS_WIDE << WideField.mtimeNs)) this.mtimeNs = wides[w]!;
    if (fields & (HAS_WIDE << WideField.ctimeNs)) this.ctimeNs = wides[w + 1]!;
    if (fields & (HAS_WIDE << WideField.ino)) this.ino = wides[w + 2]!;
    if (fields & (HAS_WIDE << WideField.dev)) this.dev = wides[w + 3]!;
  }

  isFile() {
    return isFileType(this.mode, FileType.FILE);
  }
  isDirectory() {
    return isFileType(this.mode, FileType.DIRECTORY);
  }
  isSymbolicLink() {
    return isFileType(this.mode, FileType.SYMBOLIC_LINK);
  }
  isFIFO() {
    return isFileType(this.mode, FileType.FIFO);
  }
  isSocket() {
    return isFileType(this.mode, FileType.SOCKET);
  }
  isCharacterDevice() {
    return isFileType(this.mode, FileType.CHARACTER_DEVICE);
  }
  isBlockDevice() {
    return isFileType(this.mode, FileType.BLOCK_DEVICE);
  }
}
