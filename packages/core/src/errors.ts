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

/** The message of an invalid option of `owner` (a tool's constructor, `createRuntime`). */
export function optionMessage(owner: string, name: string, problem: string): string {
  return `${owner}: ${name} ${problem}.`;
}

/** The message of a missing or invalid `createRuntime` option. */
export function runtimeOptionMessage(problem: string): string {
  return `createRuntime: ${problem}`;
}

/** The message for an option that moved from the runtime to the tool it belongs to. */
export function movedRuntimeOptionMessage(name: string, place: string): string {
  return `createRuntime: ${name} is no longer a runtime option; give it to its tool: ${place}.`;
}
