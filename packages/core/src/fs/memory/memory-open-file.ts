import type { FileStats, OpenFile } from '../file-system.js';
import { memoryError } from './memory-errors.js';
import { MemoryStats, type FileNode, type MemoryNode } from './memory-nodes.js';
import type { MemoryTree } from './memory-tree.js';

/** Sets the length of a file's bytes, keeping them and zero-filling what it grows by. */
export function resize(file: FileNode, length: number): void {
  if (length > file.data.length) {
    const grown = new Uint8Array(Math.max(length, file.data.length * 2));
    grown.set(file.data.subarray(0, file.size));
    file.data = grown;
  } else if (length < file.size) {
    // What lies past the end must read as zeros when the file grows again.
    file.data.fill(0, length, file.size);
  }
  file.size = length;
}

/**
 * A node opened by the memory backend. Like a descriptor it holds the inode, not the path: it keeps reading and
 * writing the same file after a rename replaced its path or an unlink removed it.
 */
export class MemoryOpenFile implements OpenFile {
  private closed = false;

  constructor(
    private readonly tree: MemoryTree,
    private readonly node: MemoryNode,
    private readonly path: string,
    private readonly writable: boolean,
  ) {}

  private usable(syscall: string): MemoryNode {
    if (this.closed) throw memoryError('EBADF', syscall, this.path);
    return this.node;
  }

  private file(syscall: string, forWriting: boolean): FileNode {
    const node = this.usable(syscall);
    if (node.kind === 'directory') throw memoryError('EISDIR', syscall, this.path);
    if (forWriting && !this.writable) throw memoryError('EBADF', syscall, this.path);
    return node as FileNode;
  }

  private checkRange(
    syscall: string,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): void {
    const valid =
      Number.isSafeInteger(offset) &&
      Number.isSafeInteger(length) &&
      Number.isSafeInteger(position) &&
      offset >= 0 &&
      length >= 0 &&
      position >= 0 &&
      offset + length <= buffer.length;
    if (!valid) throw memoryError('EINVAL', syscall, this.path);
  }

  async read(buffer: Uint8Array, offset: number, length: number, position: number) {
    const file = this.file('read', false);
    this.checkRange('read', buffer, offset, length, position);
    const end = Math.min(file.size, position + length);
    if (end <= position) return { bytesRead: 0 };
    buffer.set(file.data.subarray(position, end), offset);
    return { bytesRead: end - position };
  }

  async write(buffer: Uint8Array, offset: number, length: number, position: number) {
    const file = this.file('write', true);
    this.checkRange('write', buffer, offset, length, position);
    if (position + length > file.size) resize(file, position + length);
    file.data.set(buffer.subarray(offset, offset + length), position);
    this.tree.modified(file);
    return { bytesWritten: length };
  }

  async stat(): Promise<FileStats> {
    return new MemoryStats(this.usable('fstat'), this.tree.dev);
  }

  async truncate(length: number): Promise<void> {
    const file = this.file('ftruncate', true);
    if (!Number.isSafeInteger(length) || length < 0) throw memoryError('EINVAL', 'ftruncate', this.path);
    resize(file, length);
    this.tree.modified(file);
  }

  async sync(): Promise<void> {
    this.usable('fsync');
  }

  async chmod(mode: number): Promise<void> {
    const node = this.usable('fchmod');
    node.mode = (node.mode & ~0o7777) | (mode & 0o7777);
    this.tree.changed(node);
  }

  async chown(uid: number, gid: number): Promise<void> {
    const node = this.usable('fchown');
    // -1 keeps the current owner or group, as chown(2) does.
    if (uid !== -1) node.uid = uid;
    if (gid !== -1) node.gid = gid;
    this.tree.changed(node);
  }

  /** Closing twice is harmless, as with Node's `FileHandle`. */
  async close(): Promise<void> {
    this.closed = true;
  }
}
