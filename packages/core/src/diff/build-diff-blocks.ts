import type { DiffDisplayBlock } from '../result/tool-result.js';
import type { DiffLines } from './diff-lines.js';
import { diffSummaryBlock } from './diff-summary.js';
import { cutLongLines, DIFF_LINE_MAX_CHARS } from './cut-long-lines.js';
import { buildHunkBlocks, hunkLineLists, hunkRanges } from './hunks.js';
import { LineDiff } from './line-diff.js';
import type { LineRun } from './line-runs.js';
import { monotonicMs } from '../runtime/monotonic-ms.js';

/** Above this many lines on either side, a change is shown as a summary block. */
export const DIFF_MAX_LINES = 10_000;
/** Above this many bytes (UTF-8, both sides) in one block, a change is shown as a summary block. */
export const DIFF_BLOCK_MAX_BYTES = 256 * 1024;
/** Above this many bytes (UTF-8, both sides) in all blocks together, a change is shown as a summary block. */
export const DIFF_DISPLAY_MAX_BYTES = 1024 * 1024;
/** Default time budget of a diff, in milliseconds. */
export const DEFAULT_DIFF_BUDGET_MS = 200;
/** Default number of unchanged lines shown around each group of changes. */
export const DEFAULT_DIFF_CONTEXT = 3;

/** How a diff is built. */
export interface DiffOptions {
  /** Milliseconds the line diff may take before it gives up and a summary is shown (default 200). */
  budgetMs?: number;
  /** Unchanged lines shown around each group of changes (default 3). */
  context?: number;
  /** An object to fill in with where the time went (benchmarks, logs); left untouched when absent. */
  timing?: DiffTiming;
  /**
   * The line diff of these very texts, when the caller has one (its budget then stands for `budgetMs`): its search
   * runs once for the blocks and whatever else the caller shows of the change.
   */
  lines?: LineDiff;
}

/**
 * One hunk of a change, as the approval offers it (docs/approval.md#per-hunk-answers): old lines
 * `[oldStart, oldStart + oldLines)` become new lines `[newStart, newStart + newLines)` (1-based starts, as the
 * blocks'), context included; `lines` are its lines as its block shows them, each marked ` `, `-` or `+`. A summary
 * hunk covers both whole texts and has no lines.
 */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** The diff blocks of a change and its hunks: the same diff, one hunk per block (a summary block: one summary hunk). */
export interface DiffView {
  blocks: DiffDisplayBlock[];
  hunks: DiffHunk[];
  /** The line diff the view was built from. */
  lines: LineDiff;
}

/** Where the time of one `buildDiffBlocks` call went, in milliseconds. */
export interface DiffTiming {
  /** Everything but the search, in linear time: comparing, counting, splitting and numbering lines, making blocks. */
  readMs: number;
  /** The line search, which the budget bounds; 0 when none was needed. */
  searchMs: number;
  /** Whether the search ran out of budget (the result is then a summary block). */
  searchTimedOut: boolean;
}

/**
 * docs/diff-blocks.md: the diff blocks of a change from `oldText` to `newText` (both '\n'-normalised). Equal texts give no
 * blocks; more than 10,000 lines on a side, a diff not found within the budget, or blocks over their byte budget
 * (after lines over 1,000 characters are cut around the change) give one summary block. Apart
 * from reading the texts (splitting and numbering lines, in linear time), it never takes longer than the budget.
 *
 * Starts are 1-based; a side with no lines starts where its first line would be (1 in an empty file, as for
 * content written into one). Summary blocks start at 1. A change of the final newline alone shows the last line
 * removed and added again (same text). A side of one empty line and a side of no lines both read `''`.
 */
export function buildDiffBlocks(
  path: string,
  oldText: string,
  newText: string,
  options: DiffOptions = {},
): DiffDisplayBlock[] {
  return buildDiffView(path, oldText, newText, options).blocks;
}

/**
 * {@link buildDiffBlocks} with the change's hunks: one per block, numbered and cut as the block is, its lines marked
 * as the line search aligned them; a summary block gives one summary hunk (no lines, both whole texts).
 */
export function buildDiffView(
  path: string,
  oldText: string,
  newText: string,
  options: DiffOptions = {},
): DiffView {
  const { timing } = options;
  // The clock is read only for `timing`: a summary of a big change never searches, so it has no other reason to.
  const startedAt = timing ? monotonicMs() : 0;
  const given = options.lines?.isOf(oldText, newText) ? options.lines : undefined;
  const lines = given ?? new LineDiff(oldText, newText, validBudget(options.budgetMs));
  const searchedBefore = lines.clock.endedAt !== undefined;
  const view = diffView(path, lines, options);
  if (timing) {
    const clock = lines.clock;
    // A search made before this call (for the caller's own use) took none of this call's time.
    const searchMs = searchedBefore ? 0 : (clock.endedAt ?? 0) - (clock.startedAt ?? 0);
    timing.searchMs = searchMs;
    timing.readMs = monotonicMs() - startedAt - searchMs;
    timing.searchTimedOut = clock.timedOut ?? false;
  }
  return view;
}

/** The one summary block, and the one hunk that stands for the whole change. */
function summaryView(path: string, lines: LineDiff, oldCount: number, newCount: number): DiffView {
  return {
    blocks: [diffSummaryBlock(path, oldCount, newCount)],
    hunks: [{ oldStart: 1, oldLines: oldCount, newStart: 1, newLines: newCount, lines: [] }],
    lines,
  };
}

function diffView(path: string, lines: LineDiff, options: DiffOptions): DiffView {
  const { oldText, newText } = lines;
  if (oldText === newText) return { blocks: [], hunks: [], lines };
  const context = validContext(options.context);

  // Lines are counted first, and a huge text is summarised without a line of it cut out or compared.
  const oldLineCount = lines.oldLines.count;
  const newLineCount = lines.newLines.count;
  if (oldLineCount > DIFF_MAX_LINES || newLineCount > DIFF_MAX_LINES) {
    return summaryView(path, lines, oldLineCount, newLineCount);
  }

  const runs = lines.runs;
  if (runs === undefined) return summaryView(path, lines, oldLineCount, newLineCount);
  const { oldLines, newLines } = lines;
  if (changedBytesOver(runs, oldLines, newLines, DIFF_DISPLAY_MAX_BYTES)) {
    return summaryView(path, lines, oldLineCount, newLineCount);
  }
  const ranges = hunkRanges(oldLineCount, newLineCount, runs, context);
  const blocks = buildHunkBlocks(path, oldLines, newLines, ranges).map(cutLongLines);
  if (!withinByteBudget(blocks)) return summaryView(path, lines, oldLineCount, newLineCount);
  const lineLists = hunkLineLists(runs, ranges, blocks);
  const hunks = ranges.map((range, index) => ({
    oldStart: range.oldFrom + 1,
    oldLines: range.oldTo - range.oldFrom,
    newStart: range.newFrom + 1,
    newLines: range.newTo - range.newFrom,
    lines: lineLists[index]!,
  }));
  return { blocks, hunks, lines };
}

/**
 * Whether the changed lines alone surely make the blocks bigger than `limit` bytes: every removed and added line is in
 * a block, and one that cutting leaves whole (at most `DIFF_LINE_MAX_CHARS` characters) takes at least a byte per
 * character. Then the blocks would only be built to be turned down: on two different texts of 10,000 long lines,
 * building and cutting them took 11 ms.
 */
function changedBytesOver(
  runs: readonly LineRun[],
  oldLines: DiffLines,
  newLines: DiffLines,
  limit: number,
): boolean {
  let total = 0;
  let oldAt = 0;
  let newAt = 0;
  for (const run of runs) {
    const lines = run.kind === 'added' ? newLines : oldLines;
    const from = run.kind === 'added' ? newAt : oldAt;
    if (run.kind !== 'equal') {
      // Stopped as soon as the limit is passed: two rewritten texts of 10,000 long lines pass it within a fifth of
      // the first run.
      for (let index = from; index < from + run.count; index++) {
        const length = lines.shownLength(index);
        if (length <= DIFF_LINE_MAX_CHARS) total += length;
        if (total > limit) return true;
      }
    }
    if (run.kind !== 'added') oldAt += run.count;
    if (run.kind !== 'removed') newAt += run.count;
  }
  return false;
}

/** Whether every block, and all of them together, fit the byte budgets (a display a host can always pass on). */
function withinByteBudget(blocks: readonly DiffDisplayBlock[]): boolean {
  let total = 0;
  for (const block of blocks) {
    const bytes = Buffer.byteLength(block.oldText) + Buffer.byteLength(block.newText);
    if (bytes > DIFF_BLOCK_MAX_BYTES) return false;
    total += bytes;
  }
  return total <= DIFF_DISPLAY_MAX_BYTES;
}

function validBudget(budgetMs: number | undefined): number {
  if (budgetMs === undefined || Number.isNaN(budgetMs)) return DEFAULT_DIFF_BUDGET_MS;
  return Math.max(0, budgetMs);
}

function validContext(context: number | undefined): number {
  if (context === undefined || !Number.isFinite(context)) return DEFAULT_DIFF_CONTEXT;
  return Math.max(0, Math.floor(context));
}
