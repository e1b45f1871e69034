import { sameStamp, stampOf, type FileStamp } from './file-stamp.js';
import type { FileSystem } from '../fs/file-system.js';
import type { NotRegularFile } from '../fs/regular-file.js';

/** What the tracker remembers about one file. */
export interface FileStateRecord extends FileStamp {
  /** Whether the last read covered the whole file (a write always does). */
  complete: boolean;
}

/** Result of {@link FileStateTracker.check}. */
export type FileStateStatus = 'ok' | 'not-read' | 'modified';

/**
 * What one session has read and written, keyed by real path (docs/read-state.md). Created by the runtime, never shared
 * between sessions.
 */
export class FileStateTracker {
  private readonly records = new Map<string, FileStateRecord>();

  /** `fs`: where the files are (the runtime's file system); {@link check} looks at them there. */
  constructor(private readonly fs: FileSystem) {}

  /** Records a read of `realPath` with the stamp of what was read; `complete` says whether it covered the whole file. */
  recordRead(realPath: string, stamp: FileStamp, complete: boolean): void {
    this.records.set(realPath, { ...stamp, complete });
  }

  /** Records the stamp a successful write left behind, so the next edit needs no re-read. */
  recordWrite(realPath: string, stamp: FileStamp): void {
    this.records.set(realPath, { ...stamp, complete: true });
  }

  /** The record of `realPath`, if the session read or wrote it. */
  get(realPath: string): FileStateRecord | undefined {
    const record = this.records.get(realPath);
    return record && { ...record };
  }

  /** Forgets `realPath` (e.g. after it was deleted). */
  forget(realPath: string): void {
    this.records.delete(realPath);
  }

  /**
   * Whether the file may be written, judged on its stamp now ({@link checkStamp}): `not-read` when the session never
   * read it, `modified` when it changed since or is gone or no longer a regular file.
   */
  async check(realPath: string): Promise<FileStateStatus> {
    if (!this.records.has(realPath)) return 'not-read';
    return this.checkStamp(realPath, await stampOf(this.fs, realPath));
  }

  /**
   * {@link check} against a stamp the caller took itself, e.g. under the file lock on the very descriptor it read
   * the bytes it is about to replace from. A file whose stamps both carry a hash (small enough to hash, or on a
   * backend without change times or inodes) is judged by its content alone (a file that was only touched, or saved
   * again with the same bytes, is unchanged); a bigger one must have the very same stamp: size, modification and
   * change times to the nanosecond, inode and device.
   */
  checkStamp(realPath: string, current: FileStamp | NotRegularFile): FileStateStatus {
    const record = this.records.get(realPath);
    if (!record) return 'not-read';
    if (typeof current === 'string') return 'modified';
    if (record.hash !== undefined && current.hash !== undefined) {
      return record.hash === current.hash ? 'ok' : 'modified';
    }
    return sameStamp(record, current) ? 'ok' : 'modified';
  }
}
