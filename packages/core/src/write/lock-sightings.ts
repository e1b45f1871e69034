import { defineRuntimeSlot } from '../runtime/runtime-slot.js';
import { monotonicMs } from '../runtime/monotonic-ms.js';

/** Locks whose sightings one record keeps; past this many, the one seen least recently is forgotten. */
const MAX_SIGHTINGS = 1024;

/**
 * When this process first saw each lock file in the state it is in now (its text and modification time), on its own
 * monotonic clock. A lock on another host carries that host's times, which may be off by any amount: how long a lock
 * has stayed unchanged *here* is what tells an abandoned lock from one its holder keeps refreshing. It also keeps the
 * removals of this runtime's locks still under way, and the locks whose release failed, by their token, so that its
 * next lock of any file removes them.
 */
export class LockSightings {
  private readonly seen = new Map<string, { version: string; since: number }>();
  private readonly left = new Map<string, string>();
  private readonly removals = new Map<string, Promise<void>>();

  /** Milliseconds the lock at `lockPath` has shown `version` to this record; 0 when it is new or changed. */
  unchangedFor(lockPath: string, version: string): number {
    const now = monotonicMs();
    const sighting = this.seen.get(lockPath);
    this.seen.delete(lockPath);
    if (sighting?.version === version) {
      this.seen.set(lockPath, sighting); // most recently seen last
      return now - sighting.since;
    }
    this.seen.set(lockPath, { version, since: now });
    if (this.seen.size > MAX_SIGHTINGS) this.seen.delete(this.seen.keys().next().value as string);
    return 0;
  }

  /** Keeps the removal of this runtime's lock at `lockPath`, sent and not waited for (it never rejects). */
  releasing(lockPath: string, removal: Promise<void>): void {
    this.removals.set(lockPath, removal);
    void removal.then(() => {
      if (this.removals.get(lockPath) === removal) this.removals.delete(lockPath);
    });
  }

  /** Settles once the removal of this runtime's lock at `lockPath` under way, if any, is answered. */
  async released(lockPath: string): Promise<void> {
    await this.removals.get(lockPath);
  }

  /** Records that this runtime's lock at `lockPath`, holding `token`, may still be there: its release failed. */
  leftBehind(lockPath: string, token: string): void {
    this.left.set(lockPath, token);
    if (this.left.size > MAX_SIGHTINGS) this.left.delete(this.left.keys().next().value as string);
  }

  /** Every lock of this runtime left behind, by path with its token, forgotten here (the caller removes them). */
  takeLeftBehind(): [lockPath: string, token: string][] {
    if (this.left.size === 0) return [];
    const left = [...this.left];
    this.left.clear();
    return left;
  }

  /** Forgets the lock at `lockPath` (it is gone, or was broken). */
  forget(lockPath: string): void {
    this.seen.delete(lockPath);
  }
}

/** The lock sightings of one runtime, so a lock waited on in one call counts as seen in the next. */
export const LOCK_SIGHTINGS = defineRuntimeSlot('core.lockSightings', () => new LockSightings());
