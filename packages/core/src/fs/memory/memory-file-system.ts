import type {
  DirEntry,
  FileStats,
  FileSystem,
  FileSystemCapabilities,
  OpenFile,
  OpenMode,
} from '../file-system.js';
import { nodeCrypto } from '../load-on-use.js';
import { memoryError } from './memory-errors.js';
import { MemoryDirEntry, MemoryStats, type DirectoryNode, type MemoryNode } from './memory-nodes.js';
import { MemoryOpenFile, resize } from './memory-open-file.js';
import { MemoryTree, type Resolved } from './memory-tree.js';

// Hand-written rather than built on memfs (docs/file-systems.md#in-memory): memfs 4.80 pulls 27 packages (16 MB)
// into every install of core, keeps times to the millisecond only, and failed 9 cases of the conformance suite
// (`..` after a link, a file renamed onto a directory, a link not renamed as itself, a directory read as an empty
// file, EPERM for unlinking a directory, chmod moving the modification time...). This passes all of them.

/** Options of {@link memoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /** Files to start with, by absolute path: text (stored as UTF-8) or bytes. Parent directories are made. */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /** Where `~` points (default `/home/user`; not created). */
  homeDir?: string;
  /** Owner of everything created (default: the uid and gid of this process, else 0). */
  uid?: number;
  gid?: number;
  /** Permission bits taken from every mode at creation (default `0o022`: files `0o644`, directories `0o755`). */
  umask?: number;
  /**
   * Whose workspace this is, for what this host keeps for it (the default checkpoint store is keyed by it): give the
   * same one to find that again from another process. Default: new for every workspace (`memory <random UUID>`), so
   * two memory workspaces at one path never share a store.
   */
  identity?: string;
}

/** One entry of a {@link MemorySnapshot}: a file with its bytes, a directory or a symbolic link, with its mode. */
export type MemoryEntry =
  | { readonly type: 'file'; readonly content: Buffer; readonly mode: number }
  | { readonly type: 'directory'; readonly mode: number }
  | { readonly type: 'symlink'; readonly target: string };

/** Everything under a directory, by absolute path in sorted order: what a dry run compares before and after. */
export type MemorySnapshot = Readonly<Record<string, MemoryEntry>>;

/** A workspace held in memory: a {@link FileSystem} that can also say everything it holds. */
export interface MemoryFileSystem extends FileSystem {
  /**
   * Every file (with a copy of its bytes), directory and symbolic link under `directory` (default `/`), by absolute
   * path, sorted; permission bits only (`mode & 0o7777`). A file with several hard links appears under each name.
   */
  snapshot(directory?: string): MemorySnapshot;
}

const MEMORY_CAPABILITIES: FileSystemCapabilities = Object.freeze({
  atomicReplace: true,
  exclusiveCreate: true,
  // Nothing to flush: the workspace lives as long as the process.
  fsync: false,
  timeResolutionMs: 0.000001,
  inodes: true,
  ctime: true,
  linkCounts: true,
  // Only this process sees the workspace: a lock's holder is judged by its token and age, never by a process id.
  localProcesses: false,
  exec: false,
  // Names are strings here: one holding byte escapes is a name like any other.
  byteNames: true,
});

/**
 * A whole workspace in memory, for tests, dry runs ("what would this agent change?") and hosts without a disk:
 * directories, files, symbolic and hard links, modes, nanosecond modification and change times, inode numbers,
 * owners; POSIX paths (`platform: 'linux'`); errors with the codes and messages of Node's own. It runs no programs
 * (no `exec`: tools take their portable paths) and checks no permissions (it acts as the owner of everything, like
 * root on a disk). `memoryFileSystem({ files: { '/work/a.txt': 'hello\n' } })`.
 */
export function memoryFileSystem(options: MemoryFileSystemOptions = {}): MemoryFileSystem {
  const tree = new MemoryTree({
    uid: options.uid ?? process.getuid?.() ?? 0,
    gid: options.gid ?? process.getgid?.() ?? 0,
    umask: options.umask ?? 0o022,
  });
  const identity = options.identity ?? `memory ${nodeCrypto().randomUUID()}`;
  const fs = new MemoryBackend(tree, options.homeDir ?? '/home/user', identity);
  for (const [path, content] of Object.entries(options.files ?? {})) fs.seed(path, content);
  return fs;
}

class MemoryBackend implements MemoryFileSystem {
  readonly name = 'memory';
  readonly platform = 'linux';
  readonly capabilities = MEMORY_CAPABILITIES;

  constructor(
    private readonly tree: MemoryTree,
    readonly homeDir: string,
    readonly identity: string,
  ) {}

  /** Writes one seeded file, making its parents; a path that cannot be a file is the caller's mistake. */
  seed(path: string, content: string | Uint8Array): void {
    if (!path.startsWith('/')) {
      throw new Error(`memoryFileSystem: files are given by absolute path; \`${path}\` is relative.`);
    }
    this.makeDirectories(path.slice(0, path.lastIndexOf('/')) || '/', 0o777);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const { parent, name } = this.entryToCreate(path, 'open');
    const file = this.tree.newFile(0o666);
    resize(file, bytes.length);
    file.data.set(bytes);
    this.attach(parent, name, file);
  }

  async stat(path: string): Promise<FileStats> {
    return new MemoryStats(this.tree.existing(path, 'stat', true).node, this.tree.dev);
  }

  async lstat(path: string): Promise<FileStats> {
    return new MemoryStats(this.tree.existing(path, 'lstat', false).node, this.tree.dev);
  }

  async realpath(path: string): Promise<string> {
    return this.tree.existing(path, 'realpath', true).path;
  }

  async readlink(path: string): Promise<string> {
    const { node } = this.tree.existing(path, 'readlink', false);
    if (node.kind !== 'symlink') throw memoryError('EINVAL', 'readlink', path);
    return node.target;
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const { node } = this.tree.existing(path, 'scandir', true);
    if (node.kind !== 'directory') throw memoryError('ENOTDIR', 'scandir', path);
    return [...node.entries].map(([name, entry]) => new MemoryDirEntry(name, entry));
  }

  async open(path: string, mode: OpenMode): Promise<OpenFile> {
    const { node } = this.tree.existing(path, 'open', true);
    if (node.kind === 'directory' && mode === 'update') throw memoryError('EISDIR', 'open', path);
    return new MemoryOpenFile(this.tree, node, path, mode === 'update');
  }

  async create(path: string, mode = 0o666): Promise<OpenFile> {
    const { parent, name } = this.entryToCreate(path, 'open');
    const file = this.tree.newFile(mode);
    this.attach(parent, name, file);
    return new MemoryOpenFile(this.tree, file, path, true);
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.tree.existing(from, 'rename', false);
    const target = this.tree.resolve(to, 'rename', false);
    const fail = (code: Parameters<typeof memoryError>[0]) => memoryError(code, 'rename', from, to);
    if (!source.parent || !target.parent) throw fail('EBUSY');
    const moved = source.node;
    if (target.node === moved) return;
    if (moved.kind === 'directory') {
      if (target.chain.includes(moved)) throw fail('EINVAL');
      if (target.node && target.node.kind !== 'directory') throw fail('ENOTDIR');
      if (target.node?.kind === 'directory' && target.node.entries.size > 0) throw fail('ENOTEMPTY');
    } else if (target.node?.kind === 'directory') {
      throw fail('EISDIR');
    }
    // One synchronous step: no other call sees the target missing or the source in two places.
    if (target.node) this.detach(target.parent, target.name!);
    source.parent.entries.delete(source.name!);
    this.tree.modified(source.parent);
    target.parent.entries.set(target.name!, moved);
    this.tree.modified(target.parent);
    this.tree.changed(moved);
  }

  async unlink(path: string): Promise<void> {
    const { node, parent, name } = this.tree.existing(path, 'unlink', false);
    if (node.kind === 'directory' || !parent) throw memoryError('EISDIR', 'unlink', path);
    this.detach(parent, name!);
  }

  async mkdir(path: string, options: { recursive?: boolean; mode?: number } = {}): Promise<void> {
    const mode = options.mode ?? 0o777;
    if (options.recursive) {
      this.makeDirectories(path, mode);
      return;
    }
    const { parent, name } = this.entryToCreate(path, 'mkdir');
    this.attach(parent, name, this.tree.newDirectory(mode));
  }

  async rmdir(path: string): Promise<void> {
    const { node, parent, name } = this.tree.existing(path, 'rmdir', false);
    if (node.kind !== 'directory') throw memoryError('ENOTDIR', 'rmdir', path);
    if (!parent) throw memoryError(node === this.tree.root ? 'EBUSY' : 'EINVAL', 'rmdir', path);
    if (node.entries.size > 0) throw memoryError('ENOTEMPTY', 'rmdir', path);
    this.detach(parent, name!);
  }

  async chmod(path: string, mode: number): Promise<void> {
    const { node } = this.tree.existing(path, 'chmod', true);
    node.mode = (node.mode & ~0o7777) | (mode & 0o7777);
    this.tree.changed(node);
  }

  async utimes(path: string, atime: number, mtime: number): Promise<void> {
    if (!Number.isFinite(atime) || !Number.isFinite(mtime)) throw memoryError('EINVAL', 'utime', path);
    const { node } = this.tree.existing(path, 'utime', true);
    // No access time is kept (the interface reports none); the change time moves to now, never back.
    const seconds = Math.floor(mtime);
    node.mtimeNs = BigInt(seconds) * 1_000_000_000n + BigInt(Math.floor((mtime - seconds) * 1e9));
    this.tree.changed(node);
  }

  async symlink(target: string, path: string): Promise<void> {
    if (target === '') throw memoryError('ENOENT', 'symlink', target, path);
    const { parent, name } = this.entryToCreate(path, 'symlink');
    this.attach(parent, name, this.tree.newSymlink(target));
  }

  async link(existing: string, path: string): Promise<void> {
    const { node } = this.tree.existing(existing, 'link', false);
    if (node.kind === 'directory') throw memoryError('EPERM', 'link', existing, path);
    const { parent, name } = this.entryToCreate(path, 'link', existing);
    this.attach(parent, name, node);
    this.tree.changed(node);
  }

  /** Nothing to flush; like the local disk's, it never fails. */
  async syncDirectory(): Promise<void> {}

  snapshot(directory = '/'): MemorySnapshot {
    const { node, path } = this.tree.existing(directory, 'scandir', true);
    if (node.kind !== 'directory') throw memoryError('ENOTDIR', 'scandir', directory);
    const entries: Array<[string, MemoryEntry]> = [];
    const visit = (dir: DirectoryNode, dirPath: string) => {
      for (const [name, child] of dir.entries) {
        const childPath = dirPath === '/' ? `/${name}` : `${dirPath}/${name}`;
        entries.push([childPath, entryOf(child)]);
        if (child.kind === 'directory') visit(child, childPath);
      }
    };
    visit(node, path);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Where a new entry goes: its parent directory and name; EEXIST when anything is there (a dangling link too). */
  private entryToCreate(
    path: string,
    syscall: string,
    linked?: string,
  ): { parent: DirectoryNode; name: string } {
    const resolved: Resolved = this.tree.resolve(path, syscall, false);
    // Node names a link's error by both paths, the existing one first.
    const fail = (code: 'EEXIST' | 'EISDIR') =>
      linked === undefined ? memoryError(code, syscall, path) : memoryError(code, syscall, linked, path);
    if (resolved.node !== undefined) throw fail('EEXIST');
    if (resolved.mustBeDirectory && syscall !== 'mkdir') throw fail('EISDIR');
    return { parent: resolved.parent!, name: resolved.name! };
  }

  /** `mkdir -p`: each missing directory along `path` is made; something else in the way is EEXIST or ENOTDIR. */
  private makeDirectories(path: string, mode: number): void {
    const names = path.split('/').filter((name) => name !== '');
    for (let count = 1; count <= names.length; count++) {
      const prefix = `/${names.slice(0, count).join('/')}`;
      const last = count === names.length;
      const resolved = this.tree.resolve(prefix, 'mkdir', true);
      if (resolved.node?.kind === 'directory') continue;
      if (resolved.node !== undefined) throw memoryError(last ? 'EEXIST' : 'ENOTDIR', 'mkdir', path);
      // A dangling link is in the way: mkdir never makes a directory where a link points.
      if (this.tree.resolve(prefix, 'mkdir', false).node) throw memoryError('EEXIST', 'mkdir', path);
      this.attach(resolved.parent!, resolved.name!, this.tree.newDirectory(mode));
    }
  }

  private attach(parent: DirectoryNode, name: string, node: MemoryNode): void {
    parent.entries.set(name, node);
    if (node.kind === 'file') node.nlink++;
    this.tree.modified(parent);
  }

  private detach(parent: DirectoryNode, name: string): void {
    const node = parent.entries.get(name);
    parent.entries.delete(name);
    if (node?.kind === 'file') {
      node.nlink--;
      this.tree.changed(node);
    }
    this.tree.modified(parent);
  }
}

function entryOf(node: MemoryNode): MemoryEntry {
  if (node.kind === 'file')
    return { type: 'file', content: Buffer.from(node.data.subarray(0, node.size)), mode: node.mode & 0o7777 };
  if (node.kind === 'directory') return { type: 'directory', mode: node.mode & 0o7777 };
  return { type: 'symlink', target: node.target };
}
