import type { FileChangeObserver } from '@kimi-tools/core/toolkit';
import { hashBytes } from '@kimi-tools/core/toolkit';

/** The bytes of the agent's last writes kept for merges, in all; beyond it only their hashes are kept. */
const KEPT_BYTES_MAX = 64 << 20;

/** What the agent's tools last wrote to one file. */
export interface AgentWrite {
  /** The hash of what they wrote; `null`: they removed the file (a patch's deletion or move). */
  hash: string | null;
  /** The bytes, while they fit in what is kept (a merge needs them). */
  bytes?: Uint8Array;
}

/**
 * The last version each tool of the runtime wrote, by real path: a change observer on the runtime, told of every
 * write a tool applies. A file whose content now differs from it was changed by someone else after the agent.
 */
export class AgentWrites implements FileChangeObserver {
  readonly name = 'checkpoints';
  private readonly writes = new Map<string, AgentWrite>();
  private keptBytes = 0;

  changeApplied(change: { path: { real: string }; newBytes: Uint8Array }): undefined {
    this.record(change.path.real, change.newBytes);
    return undefined;
  }

  changeRemoved(change: { path: { real: string } }): void {
    const previous = this.writes.get(change.path.real);
    if (previous?.bytes) this.keptBytes -= previous.bytes.length;
    this.writes.set(change.path.real, { hash: null });
  }

  /**
   * Records that the agent (a tool, or a rewind) left `bytes` at `realPath` (`hash`: their hash, when known);
   * `null`: it removed the file.
   */
  record(realPath: string, bytes: Uint8Array | null, hash?: string): void {
    const previous = this.writes.get(realPath);
    if (previous?.bytes) this.keptBytes -= previous.bytes.length;
    if (bytes === null) {
      this.writes.delete(realPath);
      return;
    }
    const keep = this.keptBytes + bytes.length <= KEPT_BYTES_MAX;
    if (keep) this.keptBytes += bytes.length;
    this.writes.set(realPath, {
      hash: hash ?? hashBytes(bytes),
      ...(keep ? { bytes: Uint8Array.from(bytes) } : {}),
    });
  }

  /** The agent's last write to `realPath`, if a tool of this runtime wrote it. */
  get(realPath: string): AgentWrite | undefined {
    return this.writes.get(realPath);
  }
}
