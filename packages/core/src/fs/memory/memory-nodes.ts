import { byteLengthOfName } from '../byte-names.js';
import type { DirEntry, FileStats } from '../file-system.js';
import { FileType } from '../file-type.js';

/** What an inode of the memory backend holds in common: the fields `stat` reports. */
interface NodeMeta {
  readonly ino: bigint;
  /** `st_mode`: type bits and permission bits. */
  mode: number;
  uid: number;
  gid: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** A regular file: its bytes are `data[0, size)`; `data` may be longer (room to grow), and is zero past `size`. */
export interface FileNode extends NodeMeta {
  readonly kind: 'file';
  data: Uint8Array;
  size: number;
  /** Names this file has (hard links). */
  nlink: number;
}

export interface DirectoryNode extends NodeMeta {
  readonly kind: 'directory';
  /** Entries by name, never `.` or `..`. */
  readonly entries: Map<string, MemoryNode>;
}

export interface SymlinkNode extends NodeMeta {
  readonly kind: 'symlink';
  /** The target text, exactly as given. */
  readonly target: string;
}

export type MemoryNode = FileNode | DirectoryNode | SymlinkNode;

/** The type bits of each kind of node's `mode`. */
export const TYPE_BITS: Record<MemoryNode['kind'], number> = {
  file: FileType.FILE,
  directory: FileType.DIRECTORY,
  symlink: FileType.SYMBOLIC_LINK,
};

/** The size a directory reports, as most disks do (its entries are not bytes here). */
const DIRECTORY_SIZE = 4096;

/** The type tests of `FileStats` and `DirEntry`, for one kind of node. */
class KindTests {
  constructor(private readonly kind: MemoryNode['kind']) {}
  isFile = () => this.kind === 'file';
  isDirectory = () => this.kind === 'directory';
  isSymbolicLink = () => this.kind === 'symlink';
  isFIFO = () => false;
  isSocket = () => false;
  isCharacterDevice = () => false;
  isBlockDevice = () => false;
}

/** One entry of a directory listing. */
export class MemoryDirEntry extends KindTests implements DirEntry {
  constructor(
    readonly name: string,
    node: MemoryNode,
  ) {
    super(node.kind);
  }
}

/** What `stat` says of a node at the moment it was asked (later changes do not show through). */
export class MemoryStats extends KindTests implements FileStats {
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;

  constructor(node: MemoryNode, dev: bigint) {
    super(node.kind);
    this.size = sizeOf(node);
    this.mode = node.mode;
    // Whole milliseconds and the fraction apart: a double cannot hold nanoseconds since 1970 exactly.
    this.mtimeMs = Number(node.mtimeNs / 1_000_000n) + Number(node.mtimeNs % 1_000_000n) / 1e6;
    this.mtimeNs = node.mtimeNs;
    this.ctimeNs = node.ctimeNs;
    this.ino = node.ino;
    this.dev = dev;
    this.nlink = linkCountOf(node);
    this.uid = node.uid;
    this.gid = node.gid;
  }
}

function sizeOf(node: MemoryNode): number {
  if (node.kind === 'file') return node.size;
  if (node.kind === 'symlink') return byteLengthOfName(node.target);
  return DIRECTORY_SIZE;
}

/** A directory is named by its parent's entry, its own `.` and the `..` of each subdirectory, as on a disk. */
function linkCountOf(node: MemoryNode): number {
  if (node.kind === 'file') return node.nlink;
  if (node.kind === 'symlink') return 1;
  let subdirectories = 0;
  for (const entry of node.entries.values()) if (entry.kind === 'directory') subdirectories++;
  return 2 + subdirectories;
}
