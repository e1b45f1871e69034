import type { FileTypeTests } from './file-system.js';

/** The type bits of `st_mode`, by name: what a backend's `mode` says a file is (the same on every POSIX system). */
export const FileType = {
  FIFO: 0o010000,
  CHARACTER_DEVICE: 0o020000,
  DIRECTORY: 0o040000,
  BLOCK_DEVICE: 0o060000,
  FILE: 0o100000,
  SYMBOLIC_LINK: 0o120000,
  SOCKET: 0o140000,
} as const;

/** The mask of `st_mode`'s type bits. */
export const S_IFMT = 0o170000;

/** Whether `mode` has the type bits of `type` (one of {@link FileType}). */
export function isFileType(mode: number, type: number): boolean {
  return (mode & S_IFMT) === type;
}

/** The type tests of a file whose `st_mode` is `mode`, as Node's `Stats` and `Dirent` have them. */
export function fileTypeTests(mode: number): FileTypeTests {
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
