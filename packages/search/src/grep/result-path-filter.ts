import path from 'node:path';
import type { ToolRuntime } from '@kimi-tools/core';

/**
 * Decides which of ripgrep's files the model may see (docs/grep.md step 3): none the workspace deny rules refuse, none
 * that look sensitive. Both are left out silently: a warning naming the sensitive files that matched would tell the
 * model something about what they hold. One per Grep call.
 */
export class ResultPathFilter {
  private readonly prefix: string;
  private readonly checkDeny: boolean;

  constructor(
    private readonly runtime: ToolRuntime,
    base: string,
  ) {
    // Joined by concatenation: ripgrep prints clean relative paths, and `path.join` re-normalising every one of
    // thousands of them is a measurable part of a files-mode call.
    this.prefix = base.endsWith(path.sep) ? base : base + path.sep;
    this.checkDeny = runtime.deny.length > 0;
  }

  /** The absolute path of a path ripgrep printed relative to the search base. */
  absolute(relative: string): string {
    return this.prefix + relative;
  }

  /** Whether a file ripgrep printed (relative to the search base) may be shown. */
  keeps(relative: string): boolean {
    const absolute = this.prefix + relative;
    if (this.checkDeny && this.runtime.paths.isDenied(absolute)) return false;
    return !this.runtime.paths.isSensitive(absolute);
  }
}
