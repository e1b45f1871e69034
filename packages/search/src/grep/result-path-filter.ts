import type { ToolRuntime } from '@kimi-tools/core';
import type { FileStats, StatsTable } from '@kimi-tools/core/fs';
import { hasErrno, lstatMany, pathApiFor, Slots, type HiddenPathTest } from '@kimi-tools/core/toolkit';

/**
 * Files judged one by one at once, where a batch's stats did not settle them: enough to keep the file system busy
 * (each judgement may be a `stat`, a round trip on a remote backend), few enough that a listing of a hundred thousand
 * files queues rather than opens them all at once.
 */
const JUDGED_AT_ONCE = 64;

/**
 * Decides which of ripgrep's files the model may see (docs/grep.md step 3): none the workspace deny rules refuse, none a
 * `deny` permission rule hides from Grep (docs/permissions.md#reads), none that look sensitive. Both are left out
 * silently: a warning naming the sensitive files that matched would tell the model something about what they hold.
 * One per Grep call.
 *
 * Files are judged in batches, as ripgrep's output brings them: one `lstatMany` for a batch (on the local disk,
 * synchronous `lstat`s: a promise and a thread-pool round trip per file cost more than the system call), after which
 * the name and the stats settle almost every file at once. The few they do not settle (a symbolic link, a file with
 * several hard links, a private-key name) are judged one by one, {@link JUDGED_AT_ONCE} at a time, as are all the
 * files of a batch whose `lstat`s failed.
 */
export class ResultPathFilter {
  private readonly prefix: string;
  /** The search base as `lstatMany` takes it. */
  private readonly base: string;
  private readonly slots = new Slots(JUDGED_AT_ONCE);
  /**
   * The last batch's `lstat`s: each batch waits for the one before, so a remote backend (32 `lstat`s at a time) has one
   * batch out at once, however fast ripgrep lists files.
   */
  private lastBatch: Promise<StatsTable | undefined> = Promise.resolve(undefined);

  /** The filter of a Grep call searching under `base`; `hidden` from core's `hiddenFromListing`. */
  constructor(
    private readonly runtime: ToolRuntime,
    base: string,
    private readonly hidden?: HiddenPathTest,
  ) {
    // Joined by concatenation: ripgrep prints clean relative paths, and `path.join` re-normalising every one of
    // thousands of them is a measurable part of a files-mode call. Separated as the backend's paths are.
    const separator = pathApiFor(runtime.fs.platform).sep;
    this.prefix = base.endsWith(separator) ? base : base + separator;
    this.base = base;
  }

  /** The absolute path of a path ripgrep printed relative to the search base. */
  absolute(relative: string): string {
    return this.prefix + relative;
  }

  /**
   * Whether each file ripgrep printed (relative to the search base) may be shown. The files are `lstat`'ed in one
   * batch only where the backend counts links: elsewhere an ordinary name needs no stats.
   */
  async keepsEach(relatives: readonly string[]): Promise<boolean[]> {
    const table = this.runtime.fs.capabilities.linkCounts ? await this.lstatEach(relatives) : undefined;
    const kept = new Array<boolean>(relatives.length);
    const judging: Array<Promise<void>> = [];
    relatives.forEach((relative, index) => {
      const stats = table === undefined ? undefined : statsAt(table, index);
      const known = this.known(relative, stats);
      if (known !== undefined) kept[index] = known;
      else judging.push(this.judgeInTurn(relative, stats).then((verdict) => void (kept[index] = verdict)));
    });
    await Promise.all(judging);
    return kept;
  }

  /**
   * The modification time (ms) of each file ripgrep printed, when it may be shown (0 for one deleted since ripgrep saw
   * it); `undefined` when it may not. One `lstat` serves the time and the sensitive-file check.
   */
  async keptTimes(relatives: readonly string[]): Promise<Array<number | undefined>> {
    const table = await this.lstatEach(relatives);
    const times = new Array<number | undefined>(relatives.length);
    const judging: Array<Promise<void>> = [];
    relatives.forEach((relative, index) => {
      const stats = table === undefined ? undefined : statsAt(table, index);
      const known = stats === undefined ? undefined : this.known(relative, stats);
      const time = stats?.mtimeMs ?? 0;
      if (known !== undefined) times[index] = known ? time : undefined;
      else if (stats !== undefined) {
        judging.push(
          this.judgeInTurn(relative, stats).then((kept) => void (times[index] = kept ? time : undefined)),
        );
      } else judging.push(this.keptTime(relative).then((kept) => void (times[index] = kept)));
    });
    await Promise.all(judging);
    return times;
  }

  /** The `lstat`s of a batch; `undefined` when one failed otherwise than by a missing file (each is then judged alone). */
  private lstatEach(relatives: readonly string[]): Promise<StatsTable | undefined> {
    // Never rejects, so the next batch always gets its turn.
    const batch = this.lastBatch
      .then(() => lstatMany(this.runtime.fs, this.base, relatives))
      .catch(() => undefined);
    this.lastBatch = batch;
    return batch;
  }

  /** The verdict, when the name and `stats` (`undefined`: not taken) settle it; a check that fails refuses the file. */
  private known(relative: string, stats: FileStats | null | undefined): boolean | undefined {
    const absolute = this.prefix + relative;
    if (this.hidden?.(absolute)) return false;
    try {
      const sensitive = this.runtime.paths.isSensitiveKnown(absolute, stats);
      return sensitive === undefined ? undefined : !sensitive;
    } catch {
      return false;
    }
  }

  /** {@link keptTimes}' answer for one file, from a `stat` of its own. */
  private keptTime(relative: string): Promise<number | undefined> {
    return this.slots.run(async () => {
      const absolute = this.prefix + relative;
      let stats: FileStats | null | undefined;
      try {
        stats = await this.runtime.fs.stat(absolute);
      } catch (error) {
        // Gone since ripgrep listed it: sorted last. Any other failure is left to the sensitive-file check.
        stats = hasErrno(error, 'ENOENT') ? null : undefined;
      }
      return (await this.judge(relative, stats)) ? (stats?.mtimeMs ?? 0) : undefined;
    });
  }

  private judgeInTurn(relative: string, stats: FileStats | null | undefined): Promise<boolean> {
    return this.slots.run(() => this.judge(relative, stats));
  }

  /** `stats`: of the file, when the caller took them (`null`: it is gone). A check that fails refuses the file. */
  private async judge(relative: string, stats: FileStats | null | undefined): Promise<boolean> {
    const absolute = this.prefix + relative;
    if (this.hidden?.(absolute)) return false;
    try {
      return !(await this.runtime.paths.isSensitive(absolute, stats));
    } catch {
      return false;
    }
  }
}

/**
 * What `stat` would give of entry `index` of a batch of `lstat`s: its stats (`null`: nothing there), or `undefined`
 * for a symbolic link, which only a `stat` of its own can follow.
 */
function statsAt(table: StatsTable, index: number): FileStats | null | undefined {
  const stats = table.at(index);
  if (stats === undefined) return null;
  return stats.isSymbolicLink() ? undefined : stats;
}
