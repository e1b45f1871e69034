// Core's error vocabulary: every brief and every error message core produces is worded here, once.

/** Thrown inside `withFileLock` when the lock was broken (its holder was suspended past `staleMs`) before a write. */
export class FileLockLostError extends Error {
  constructor(readonly filePath: string) {
    super(
      `The lock on ${filePath} was broken while it was held (the writer was suspended too long); nothing was written.`,
    );
    this.name = 'FileLockLostError';
  }
}

/** The message of the error `withFileLock` throws when another writer holds the lock past the timeout. */
export function fileLockedMessage(filePath: string, lockPath: string): string {
  return `${filePath} is locked by another writer (${lockPath}); try again later.`;
}
