import type { FileSystem } from '../fs/file-system.js';
import { defineRuntimeSlot } from '../runtime/runtime-slot.js';
import { createDirectories, removeCreatedDirectories } from './created-directories.js';
import { missingDirectories } from './missing-directories.js';
import type { PathLocks } from './path-locks.js';

/** The key of `runtime.locks` under which directories are made and removed: a NUL byte never occurs in a path. */
const DIRECTORIES_KEY = '\0directories';

/** The directories of one change being written, from {@link RuntimeDirectories.begin} to its `end`. */
export interface ChangeDirectories {
  /** The directories this change made, shallowest first as they were made. */
  readonly created: string[];
  /**
   * Makes again the missing directories above `filePath`, as this change's: its lock file found its directory gone
   * (removed by a change of the runtime that wrote nothing, before this one began, or by someone else).
   */
  remake(filePath: string): Promise<void>;
  /**
   * The change is over: when it wrote nothing, the directories it made go, once no other change of the runtime is
   * being written (until then they are left to the last such change to end, which removes those still empty).
   */
  end(wrote: boolean): Promise<void>;
}

/**
 * How the changes of one runtime make and remove directories (docs/writing.md#one-change-at-a-time): one at a time,
 * under one key of the runtime's locks, and never while another change of the runtime is being written, which may have
 * found them and be about to write into them.
 */
export class RuntimeDirectories {
  /** Changes between `begin` and `end`. */
  private writing = 0;
  /** Directories made by changes that wrote nothing, left while others were being written. */
  private readonly left: string[] = [];

  constructor(
    private readonly fs: FileSystem,
    private readonly locks: PathLocks,
  ) {}

  /**
   * A change's write begins: its missing `directories` (shallowest first) are made, `modeOf` giving their permission
   * bits as `createDirectories` takes them. Throws what stops one being made, those made before it removed again.
   */
  async begin(
    directories: readonly string[],
    modeOf?: (directory: string) => number | undefined,
  ): Promise<ChangeDirectories> {
    this.writing++;
    const created: string[] = [];
    let ended = false;
    const change: ChangeDirectories = {
      created,
      remake: (filePath) =>
        this.serially(async () => {
          created.push(...(await createDirectories(this.fs, await missingDirectories(this.fs, filePath))));
        }),
      end: async (wrote) => {
        if (ended) return;
        ended = true;
        this.writing--;
        if (!wrote) this.left.push(...created);
        await this.removeLeft();
      },
    };
    try {
      if (directories.length > 0) {
        created.push(...(await this.serially(() => createDirectories(this.fs, directories, modeOf))));
      }
    } catch (error) {
      await change.end(false);
      throw error;
    }
    return change;
  }

  /** Removes the directories left, deepest first (only empty ones go), unless a change is being written. */
  private async removeLeft(): Promise<void> {
    if (this.writing > 0 || this.left.length === 0) return;
    await this.serially(async () => {
      // One may have begun while this waited: they are left to it.
      if (this.writing > 0) return;
      const shallowestFirst = this.left.splice(0).sort((a, b) => a.length - b.length);
      await removeCreatedDirectories(this.fs, shallowestFirst);
    });
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    return this.locks.run(DIRECTORIES_KEY, task);
  }
}

/** The runtime's {@link RuntimeDirectories}. */
export const RUNTIME_DIRECTORIES = defineRuntimeSlot(
  'write.runtimeDirectories',
  (runtime) => new RuntimeDirectories(runtime.fs, runtime.locks),
);
