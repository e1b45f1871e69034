import { byteLengthOfName } from '../byte-names.js';
import { MAX_LINK_HOPS } from '../follow-links.js';
import { memoryError } from './memory-errors.js';
import {
  TYPE_BITS,
  type DirectoryNode,
  type FileNode,
  type MemoryNode,
  type SymlinkNode,
} from './memory-nodes.js';

/** Who owns what the tree creates, and which permission bits creation takes away. */
export interface TreeOwner {
  readonly uid: number;
  readonly gid: number;
  readonly umask: number;
}

/** Where a path leads, as the kernel's path walk finds it. */
export interface Resolved {
  /** What the path names; `undefined` when only its last name is missing (its parent directory exists). */
  readonly node: MemoryNode | undefined;
  /** The directory holding the last name; absent for `/` and for a path ending in `.` or `..`. */
  readonly parent: DirectoryNode | undefined;
  readonly name: string | undefined;
  /** The canonical path of the node (or of where the missing name would be). */
  readonly path: string;
  /** Every directory from the root down to the one the last name is in. */
  readonly chain: readonly DirectoryNode[];
  /** The path ends in `/`, `/.` or `/..`: it can only name a directory. */
  readonly mustBeDirectory: boolean;
}

/**
 * The longest name a directory holds, in bytes, as Linux's NAME_MAX (`ENAMETOOLONG` beyond): UTF-8, a byte escape one
 * byte (`byteLengthOfName`), as the name is on a disk.
 */
const MAX_NAME_BYTES = 255;
/** A path of this many bytes (counted as a name's) is too long, as Linux's PATH_MAX (which counts the final NUL). */
const MAX_PATH_BYTES = 4096;

/** The names of a path or of a link's target, without the empty ones and `.`. */
function namesOf(path: string): string[] {
  return path.split('/').filter((name) => name !== '' && name !== '.');
}

/**
 * The inodes of a memory workspace, and the path walk over them. Times come from one clock per tree that never
 * repeats a value, so every change gets a modification time of its own (staleness never misses a change made within
 * one clock tick, as it can on a disk).
 */
export class MemoryTree {
  readonly root: DirectoryNode;
  /** The device of every inode here: random, so that two memory workspaces never look like one device. */
  readonly dev = BigInt(1 + Math.floor(Math.random() * 2 ** 31));
  private nextIno = 1n;
  private lastNs = 0n;
  private readonly clockBase = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

  constructor(readonly owner: TreeOwner) {
    this.root = this.newDirectory(0o755);
  }

  /** Nanoseconds since the epoch, strictly later than the last value given. */
  now(): bigint {
    const now = this.clockBase + process.hrtime.bigint();
    this.lastNs = now > this.lastNs ? now : this.lastNs + 1n;
    return this.lastNs;
  }

  private meta(kind: MemoryNode['kind'], mode: number) {
    const now = this.now();
    const { uid, gid } = this.owner;
    return { ino: this.nextIno++, mode: TYPE_BITS[kind] | mode, uid, gid, mtimeNs: now, ctimeNs: now };
  }

  /** A new empty file (not yet in any directory), its mode trimmed by the umask. */
  newFile(mode: number): FileNode {
    const permissions = mode & 0o7777 & ~this.owner.umask;
    return { kind: 'file', ...this.meta('file', permissions), data: new Uint8Array(0), size: 0, nlink: 0 };
  }

  newDirectory(mode: number): DirectoryNode {
    return {
      kind: 'directory',
      ...this.meta('directory', mode & 0o7777 & ~this.owner.umask),
      entries: new Map(),
    };
  }

  newSymlink(target: string): SymlinkNode {
    return { kind: 'symlink', ...this.meta('symlink', 0o777), target };
  }

  /** Records that a node's content changed: its modification and change times move to now. */
  modified(node: MemoryNode): void {
    node.mtimeNs = node.ctimeNs = this.now();
  }

  /** Records that a node's inode changed (mode, owner, times, links): its change time moves to now. */
  changed(node: MemoryNode): void {
    node.ctimeNs = this.now();
  }

  /**
   * Walks `path` as the kernel does: every symbolic link met before the last name is followed (relative to the
   * directory holding it, or from the root), `..` goes to the parent of where the walk really is, and the last name
   * is followed only when `followLast` (or when the path ends in a slash). More than {@link MAX_LINK_HOPS} links is
   * ELOOP; a missing directory on the way is ENOENT, a non-directory on the way ENOTDIR.
   */
  resolve(path: string, syscall: string, followLast: boolean): Resolved {
    if (!path.startsWith('/') || path.includes('\0')) throw memoryError('EINVAL', syscall, path);
    if (path.length >= MAX_PATH_BYTES / 3 && byteLengthOfName(path) >= MAX_PATH_BYTES) {
      throw memoryError('ENAMETOOLONG', syscall, path);
    }
    const mustBeDirectory = /\/\.{0,2}$/.test(path);
    const pending = namesOf(path).reverse();
    const chain: DirectoryNode[] = [this.root];
    const names: string[] = [];
    let node: MemoryNode = this.root;
    let parent: DirectoryNode | undefined;
    let name: string | undefined;
    let hops = 0;
    while (pending.length > 0) {
      const next = pending.pop()!;
      // A UTF-16 unit is 3 UTF-8 bytes at most: only a long name needs counting.
      if (next.length > MAX_NAME_BYTES / 3 && byteLengthOfName(next) > MAX_NAME_BYTES) {
        throw memoryError('ENAMETOOLONG', syscall, path);
      }
      const directory = chain[chain.length - 1]!;
      const last = pending.length === 0;
      if (next === '..') {
        if (chain.length > 1) {
          chain.pop();
          names.pop();
        }
        node = chain[chain.length - 1]!;
        parent = name = undefined;
        continue;
      }
      const child = directory.entries.get(next);
      if (child === undefined) {
        if (!last) throw memoryError('ENOENT', syscall, path);
        return {
          node: undefined,
          parent: directory,
          name: next,
          path: joined([...names, next]),
          chain,
          mustBeDirectory,
        };
      }
      if (child.kind === 'symlink' && (!last || followLast || mustBeDirectory)) {
        if (++hops > MAX_LINK_HOPS) throw memoryError('ELOOP', syscall, path);
        if (child.target === '') throw memoryError('ENOENT', syscall, path);
        if (child.target.startsWith('/')) {
          chain.length = 1;
          names.length = 0;
        }
        pending.push(...namesOf(child.target).reverse());
        node = chain[chain.length - 1]!;
        parent = name = undefined;
        continue;
      }
      if (child.kind !== 'directory' && !last) throw memoryError('ENOTDIR', syscall, path);
      node = child;
      parent = directory;
      name = next;
      if (child.kind === 'directory') {
        chain.push(child);
        names.push(next);
      }
    }
    if (mustBeDirectory && node.kind !== 'directory') throw memoryError('ENOTDIR', syscall, path);
    const canonical = node.kind === 'directory' ? joined(names) : joined([...names, name!]);
    // The chain ends with the directory holding the last name: a directory reached last is not its own holder.
    const holders = node.kind === 'directory' && parent !== undefined ? chain.slice(0, -1) : chain;
    return { node, parent, name, path: canonical, chain: holders, mustBeDirectory };
  }

  /** Like {@link resolve}, for a path that must exist: ENOENT when it does not. */
  existing(path: string, syscall: string, followLast: boolean): Resolved & { node: MemoryNode } {
    const resolved = this.resolve(path, syscall, followLast);
    if (resolved.node === undefined) throw memoryError('ENOENT', syscall, path);
    return resolved as Resolved & { node: MemoryNode };
  }
}

function joined(names: readonly string[]): string {
  return `/${names.join('/')}`;
}
