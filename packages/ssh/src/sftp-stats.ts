import type { Attributes } from 'ssh2';
import { FileType, isFileType, type DirEntry, type FileStats, type FileTypeTests } from '@kimi-tools/core/fs';

/** The type tests of a mode, as Node's `Stats` and `Dirent` have them. */
function typeTests(mode: number): FileTypeTests {
  return {
    isFile: () => isFileType(mode, FileType.FILE),
    isDirectory: () => isFileType(mode, FileType.DIRECTORY),
    isSymbolicLink: () => isFileType(mode, FileType.SYMBOLIC_LINK),
    isFIFO: () => isFileType(mode, FileType.FIFO),
    isSocket: () => isFileType(mode, FileType.SOCKET),
    isCharacterDevice: () => isFileType(mode, FileType.CHARACTER_DEVICE),
    isBlockDevice: () => isFileType(mode, FileType.BLOCK_DEVICE),
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
