/** Which search ran a Grep call: ripgrep where the files are, or the portable JavaScript search (docs/grep.md). */
export type SearchEngine = 'ripgrep' | 'portable';

/** Output kept at most; past it the search is stopped, so a pattern matching everything cannot exhaust memory. */
export const MAX_SEARCH_OUTPUT_BYTES = 64 * 1024 * 1024;

/** How a search ended. Both searches print ripgrep's output (the portable one as ripgrep would print it). */
export interface SearchRun {
  /** The output, unless an `onStdout` took it. */
  stdout: Buffer;
  stderr: string;
  /** ripgrep's exit code (0: found, 1: nothing found, 2: an error); `null` when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped because its output passed {@link MAX_SEARCH_OUTPUT_BYTES}. */
  outputCapped: boolean;
}
