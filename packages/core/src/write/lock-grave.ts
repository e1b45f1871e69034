import path from 'node:path';
import { hasErrno } from '../fs/errno.js';
import type { FileSystem } from '../fs/file-system.js';
import { buriedIn, removeGrave, removeLeftGrave, stopLateMove } from './grave.js';
import type { LockSightings } from './lock-sightings.js';
import { tempNameOf } from './temp-files.js';

// Where requests wait in a server's queue (over SSH), a lock is let go through a grave (./grave.ts) named after its
// token: a request a server makes late, the connection dropped or the server stopped long enough for the lock to be
// broken, would otherwise remove the lock another writer took by then.

/** The start of a token a lock's grave is named after: 12 hex digits, as a temp name's. */
const GRAVE_ID = /^[0-9a-f]{12}/;

/**
 * The grave a release over SSH renames the lock holding `token` into before removing it (`.{lock name}.kimi-tmp-{the
 * token's first 12 hex digits}`), named after the token so that whoever breaks the lock as abandoned can remove it;
 * `undefined` for a token that names none (an empty lock's).
 */
function graveOf(lockPath: string, token: string): string | undefined {
  const id = GRAVE_ID.exec(token)?.[0];
  return id === undefined
    ? undefined
    : path.join(path.dirname(lockPath), tempNameOf(path.basename(lockPath), id));
}

/**
 * Removes the grave of the lock holding `token`, just broken as abandoned, before a new lock is taken: its holder's
 * release over SSH may wait in a server's queue, stopped, to rename whatever lock is there by then into it. Gone, it
 * takes nothing (a grave holding what it took goes with it; one holding anything else is not ours to empty).
 */
export async function removeHoldersGrave(fs: FileSystem, lockPath: string, token: string): Promise<void> {
  const grave = graveOf(lockPath, token);
  if (grave !== undefined) await removeLeftGrave(fs, grave);
}

/**
 * Makes the grave of the lock holding `token`, where requests wait in a server's queue (`requestsInOrder`) and the
 * token names one: its path once it is there, made now or left by an earlier release of the same lock. A grave that
 * cannot be made (a full disk) has the lock removed in place.
 */
export async function digGrave(fs: FileSystem, lockPath: string, token: string): Promise<string | undefined> {
  const grave = fs.capabilities.requestsInOrder ? graveOf(lockPath, token) : undefined;
  if (grave === undefined) return undefined;
  return fs.mkdir(grave).then(
    () => grave,
    (error: unknown) => {
      if (hasErrno(error, 'ECONNRESET')) throw error;
      return hasErrno(error, 'EEXIST') ? grave : undefined;
    },
  );
}

/**
 * Renames the lock into its grave, then removes both, all sent at once and not waited for by the caller: whatever this
 * process asks of the backend next finds the lock gone. A request left in a server stopped on its way out (a dropped
 * connection) or in one that stood still long enough for the lock to be broken is made late: a late removal of the
 * lock's path would take the lock another writer took by then, where a late rename finds the grave gone, removed by
 * whoever broke the lock ({@link removeHoldersGrave}) or, when the rename's answer is lost, right here
 * ({@link stopLateMove}). A lock that may still be there, or a grave whose removal failed, is kept in `sightings`, for
 * this runtime's next lock of any file to remove.
 */
export async function buryLock(
  fs: FileSystem,
  lockPath: string,
  grave: string,
  token: string,
  sightings: LockSightings,
): Promise<void> {
  const moving = fs.rename(lockPath, buriedIn(fs, grave));
  let removing = removeGrave(fs, grave);
  removing.catch(() => false);
  try {
    await moving;
  } catch (error) {
    const moved = hasErrno(error, 'ECONNRESET') ? await stopLateMove(fs, grave) : false;
    // Not moved: the next lock looks whether it is still there and ours (it may have been broken meanwhile, or the
    // grave removed by whoever broke it).
    if (!moved) {
      sightings.leftBehind(lockPath, token);
      return;
    }
    removing = removeGrave(fs, grave);
  }
  // Moved, and the grave's removal cut off (a connection lost), the removal of the lock in it or of the emptied grave:
  // left in the workspace, it would be listed among the user's files until a clean-up; the next lock finds the lock
  // gone and removes the grave with what it took.
  const gone = await removing.catch(() => false);
  if (!gone) sightings.leftBehind(lockPath, token);
}
