import { hasErrno } from './errno.js';
import { nodeTimers } from './load-on-use.js';

/**
 * Retries after a failure for want of a file descriptor, waiting 1, 2, 4... ms: about one second in all, long enough
 * for the calls holding descriptors to close them, short enough that a process truly out of them gets its error.
 */
export const DESCRIPTOR_SHORTAGE_RETRIES = 10;

/**
 * Whether an operation failed because the process (EMFILE) or the system (ENFILE) had no file descriptor to spare: a
 * passing condition, never a fact about the file. Treating it as "missing" or "unreadable" gives wrong answers.
 */
export function isDescriptorShortage(error: unknown): boolean {
  return hasErrno(error, 'EMFILE', 'ENFILE');
}

/** The wait before retry number `attempt` (0-based) of {@link DESCRIPTOR_SHORTAGE_RETRIES}. */
export function descriptorShortageDelayMs(attempt: number): number {
  return 2 ** attempt;
}

/**
 * Runs `operation`, and again after each failure for want of a file descriptor, up to
 * {@link DESCRIPTOR_SHORTAGE_RETRIES} times; any other failure, or the last shortage, is thrown.
 */
export async function retryOnDescriptorShortage<T>(
  operation: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isDescriptorShortage(error) || attempt >= DESCRIPTOR_SHORTAGE_RETRIES) throw error;
      // Cancelled while waiting: the signal's own reason, as every cancelled call reports it.
      await nodeTimers()
        .setTimeout(descriptorShortageDelayMs(attempt), undefined, { signal })
        .catch((aborted: unknown) => {
          throw signal?.reason ?? aborted;
        });
    }
  }
}
