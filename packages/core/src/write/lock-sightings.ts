import { defineRuntimeSlot } from '../runtime/runtime-slot.js';
import { monotonicMs } from '../runtime/monotonic-ms.js';

/** Locks whose sightings one record keeps; past this many, the one seen least recently is forgotten. */
const MAX_SIGHTINGS = 1024;

/**
 * When this process first saw each lock file in the state it is in now (its text and modification time), on its own
 * monotonic clock. A lock on another host carries that host's times, which may be off by any amount: how long a lock
 * has stayed unchanged *here* is what tells an abandoned lock from one its holder keeps refreshing.
 */
export class LockSightings {
  private readonly seen = new Map<string, { version: string; since: number }>();

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

  /** Forgets the lock at `lockPath` (it is gone, or was broken). */
  forget(lockPath: string): void {
    this.seen.delete(lockPath);
  }
}

/** The lock sightings of one runtime, so a lock waited on in one call counts as seen in the next. */
export const LOCK_SIGHTINGS = defineRuntimeSlot('core.lockSightings', () => new LockSightings());
