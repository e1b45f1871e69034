/**
 * Serialises tasks per key (a real path): a task starts when the previous task on the same path has settled.
 * Tasks on different paths run concurrently. Idle paths hold no memory.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task on `realPath` has finished; resolves or rejects with its result. */
  run<T>(realPath: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(realPath) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(realPath, tail);
    void tail.then(() => {
      if (this.tails.get(realPath) === tail) this.tails.delete(realPath);
    });
    return result;
  }

  /** Whether a task is running or waiting on `realPath`. */
  isBusy(realPath: string): boolean {
    return this.tails.has(realPath);
  }
}
