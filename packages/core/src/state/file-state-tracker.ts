import { promises as fs } from 'node:fs';
import { hashFile, type FileSnapshot } from './file-snapshot.js';

/** What the tracker remembers about one file. */
export interface FileStateRecord extends FileSnapshot {
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

  /** Records a read of `realPath`; `complete` says whether it covered the whole file. */
  recordRead(realPath: string, snapshot: FileSnapshot, complete: boolean): void {
    this.records.set(realPath, { ...snapshot, complete });
  }

  /** Records the state a successful write left behind, so the next edit needs no re-read. */
  recordWrite(realPath: string, snapshot: FileSnapshot): void {
    this.records.set(realPath, { ...snapshot, complete: true });
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
   * Whether the file may be written: `not-read` when the session never read it, `modified` when its mtime or size
   * changed **and** its content hash differs (a touched-but-identical file is fine), or when it disappeared.
   */
  async check(realPath: string): Promise<FileStateStatus> {
    const record = this.records.get(realPath);
    if (!record) return 'not-read';
    let stats;
    try {
      stats = await fs.stat(realPath);
    } catch {
      return 'modified';
    }
    if (!stats.isFile()) return 'modified';
    if (stats.mtimeMs === record.mtimeMs && stats.size === record.size) return 'ok';
    if (stats.size !== record.size) return 'modified';
    if ((await hashFile(realPath)) !== record.hash) return 'modified';
    // Same content under a new timestamp: remember it, so the next check is a plain stat again.
    record.mtimeMs = stats.mtimeMs;
    return 'ok';
  }
}
