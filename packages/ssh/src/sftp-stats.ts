import type { Attributes } from 'ssh2';
import { fileTypeTests, type DirEntry, type FileStats } from '@kimi-tools/core/fs';

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
    ...fileTypeTests(attrs.mode),
  };
}

/** A directory entry from the name and the `lstat` attributes the server lists it with. */
export function toDirEntry(name: string, attrs: Attributes): DirEntry {
  return dirEntry(name, attrs.mode);
}

/** A directory entry from its name and the mode (its type bits) `lstat` gives. */
export function dirEntry(name: string, mode: number): DirEntry {
  return { name, ...fileTypeTests(mode) };
}
