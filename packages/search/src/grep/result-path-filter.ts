import type { ToolRuntime } from '@kimi-tools/core';
import type { FileStats } from '@kimi-tools/core/fs';
import { hasErrno, pathApiFor, Slots, type HiddenPathTest } from '@kimi-tools/core/toolkit';

/**
 * Files judged at once: enough to keep the file system busy while ripgrep still searches (each judgement is a `stat`,
 * a round trip on a remote backend), few enough that a listing of a hundred thousand files queues rather than opens
 * them all at once.
 */
const JUDGED_AT_ONCE = 64;

/**
 * Decides which of ripgrep's files the model may see (docs/grep.md step 3): none the workspace deny rules refuse, none a
 * `deny` permission rule hides from Grep (docs/permissions.md#reads), none that look sensitive. Both are left out silently: a warning naming the sensitive files that matched would tell the
 * model something about what they hold. One per Grep call; its judgements run {@link JUDGED_AT_ONCE} at a time.
 */
export class ResultPathFilter {
  private readonly prefix: string;
  private readonly slots = new Slots(JUDGED_AT_ONCE);

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
  }

  /** The absolute path of a path ripgrep printed relative to the search base. */
  absolute(relative: string): string {
    return this.prefix + relative;
  }

  /** Whether a file ripgrep printed (relative to the search base) may be shown. */
  keeps(relative: string): Promise<boolean> {
    return this.slots.run(() => this.judge(relative, undefined));
  }

  /**
   * The modification time (ms) of a file ripgrep printed, when it may be shown (0 for one deleted since ripgrep saw
   * it); `undefined` when it may not. One `stat` serves the time and the sensitive-file check.
   */
  keptTime(relative: string): Promise<number | undefined> {
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
