import type { Attributes } from 'ssh2';
import type { DirEntry, FileStats, FileTypeTests } from '@kimi-tools/core/fs';

const S_IFMT = 0o170000;

/** The type bits of `st_mode`, by name. */
export const FileType = {
  FIFO: 0o010000,
  CHARACTER_DEVICE: 0o020000,
  DIRECTORY: 0o040000,
  BLOCK_DEVICE: 0o060000,
  FILE: 0o100000,
  SYMBOLIC_LINK: 0o120000,
  SOCKET: 0o140000,
} as const;

/** Whether `mode` has the type bits of `type`. */
export function isType(mode: number, type: number): boolean {
  return (mode & S_IFMT) === type;
}

/** The type tests of a mode, as Node's `Stats` and `Dirent` have them. */
function typeTests(mode: number): FileTypeTests {
  return {
    isFile: () => isType(mode, FileType.FILE),
    isDirectory: () => isType(mode, FileType.DIRECTORY),
    isSymbolicLink: () => isType(mode, FileType.SYMBOLIC_LINK),
    isFIFO: () => isType(mode, FileType.FIFO),
    isSocket: () => isType(mode, FileType.SOCKET),
    isCharacterDevice: () => isType(mode, FileType.CHARACTER_DEVICE),
    isBlockDevice: () => isType(mode, FileType.BLOCK_DEVICE),
  };
}

/**
 * SFTP v3 attributes as {@link FileStats}: size, mode, owner and the modification time in whole seconds. SFTP has no
 * inode, device, link count or change time, so those fields are absent (never 0).
 */
export function toFileStats(attrs: Attributes): FileStats {
  return {
    size: attrs.size,
    mode: attrs.mode,
    mtimeMs: attrs.mtime * 1000,
    uid: attrs.uid,
    gid: attrs.gid,
    ...typeTests(attrs.mode),
  };
}

/** A directory entry from the name and the `lstat` attributes the server lists it with. */
export function toDirEntry(name: string, attrs: Attributes): DirEntry {
  return dirEntry(name, attrs.mode);
}

/** A directory entry from its name and the mode (its type bits) `lstat` gives. */
export function dirEntry(name: string, mode: number): DirEntry {
  return { name, ...typeTests(mode) };
}
