import path from 'node:path';
import type { ToolRuntime } from '@kimi-tools/core';

/**
 * Decides which of ripgrep's files the model may see (docs/grep.md step 3): none the workspace deny rules refuse, none
 * that look sensitive. Remembers the sensitive ones for the warning. One per Grep call.
 */
export class ResultPathFilter {
  /** Relative paths of the sensitive files left out, each once, in the order met. */
  readonly sensitive = new Set<string>();
  private readonly prefix: string;
  private readonly checkDeny: boolean;

  /**
   * `targetIsSensitive`: the search is of one file whose real path is sensitive, reached through an innocent
   * name (a symlink to `.env`); ripgrep prints the innocent name, so the name alone would let it through.
   */
  constructor(
    private readonly runtime: ToolRuntime,
    base: string,
    private readonly targetIsSensitive = false,
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
    if (!this.targetIsSensitive && !this.runtime.paths.isSensitive(absolute)) return true;
    this.sensitive.add(relative);
    return false;
  }
}
