import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import { readHandleUpTo } from '@kimi-tools/core/toolkit';
import { MAX_UNSIZED_BYTES } from './limits.js';

/** What is read of a regular file that stats as empty. */
export type UnsizedFileRead =
  { kind: 'empty' } | { kind: 'snapshot'; handle: OpenFile; size: number } | { kind: 'too-large' };

/**
 * A regular file that stats as empty may still hold bytes: Linux's `/proc` and some FUSE file systems report size 0
 * for content they make when it is read. Such a file is read to its end once, and the later reads of this call are
 * served from that snapshot: its content may differ at every read (`/proc/self/status`), and lines counted from one
 * read and shown from another would not agree. A file that is truly empty costs one read that returns nothing.
 */
export async function readUnsizedFile(handle: OpenFile): Promise<UnsizedFileRead> {
  const bytes = await readHandleUpTo(handle, MAX_UNSIZED_BYTES + 1, 64 * 1024);
  if (bytes.length === 0) return { kind: 'empty' };
  if (bytes.length > MAX_UNSIZED_BYTES) return { kind: 'too-large' };
  return { kind: 'snapshot', handle: snapshotHandle(handle, bytes), size: bytes.length };
}

/** ReadFile only reads: a snapshot refuses the rest of an open file's calls. */
const readOnly = (): Promise<never> => Promise.reject(new Error('a snapshot of a file is read-only'));

/** An open file whose reads come from `bytes`; its stats are `handle`'s, with the size of the snapshot. */
function snapshotHandle(handle: OpenFile, bytes: Buffer): OpenFile {
  return {
    read: async (buffer, offset, length, position) => {
      const end = Math.min(bytes.length, position + length);
      const copied = position < end ? bytes.copy(buffer, offset, position, end) : 0;
      return { bytesRead: copied };
    },
    stat: async (): Promise<FileStats> =>
      Object.assign(Object.create(await handle.stat()), { size: bytes.length }),
    write: readOnly,
    truncate: readOnly,
    sync: () => Promise.resolve(),
    chmod: readOnly,
    chown: readOnly,
    close: () => handle.close(),
  };
}
