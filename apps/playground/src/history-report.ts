import { promises as fs } from 'node:fs';
import type { FileHistory, HistoryEntry } from '@kimi-tools/core';
import { buildDiffBlocks, decodeText } from '@kimi-tools/core/toolkit';
import { renderDiff } from './diff-render.js';
import type { Output } from './output.js';
import type { StepReport } from './session-runner.js';

/** Options of {@link reportHistory}. */
export interface HistoryReportOptions {
  history: FileHistory;
  steps: readonly StepReport[];
  output: Output;
  showPath: (realPath: string) => string;
  /** Whether to undo one change (the last edit of a file that existed before). */
  undo: boolean;
}

/** What {@link reportHistory} undid, or why the undo failed. */
export interface UndoOutcome {
  /** The version that was restored. */
  entry?: HistoryEntry;
  /** The step whose change was undone, when known. */
  step?: number;
  /** Why the undo failed, when it did. */
  error?: string;
}

async function readText(file: string): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  const decoded = decodeText(bytes);
  return decoded.ok ? decoded.decoded.text : undefined;
}

function stepOf(entry: HistoryEntry, steps: readonly StepReport[]): number | undefined {
  return steps.find((report) =>
    report.saved.some((saved) => saved.path === entry.path && saved.version === entry.version),
  )?.number;
}

// The change worth showing undone: the latest edit of a file that existed before (undoing a creation deletes).
function pickUndo(entries: readonly HistoryEntry[]): HistoryEntry | undefined {
  return entries.findLast((entry) => entry.size !== null) ?? entries.at(-1);
}

/**
 * Lists the versions the runtime's file history saved (one per change), then, when asked, restores the one
 * picked by {@link pickUndo} and shows the diff of the undo.
 */
export async function reportHistory(options: HistoryReportOptions): Promise<UndoOutcome> {
  const { history, steps, output, showPath } = options;
  const c = output.colors;
  const entries = history.list();
  output.line(c.bold('What changed (file history)'));
  if (entries.length === 0) {
    output.line('  nothing: no file was written.');
    return {};
  }
  for (const entry of entries) {
    const step = stepOf(entry, steps);
    const how = entry.size === null ? 'created' : 'changed';
    const by = step === undefined ? '' : ` by step ${step}`;
    const before = entry.size === null ? 'did not exist before' : `${entry.size} bytes before`;
    output.line(
      `  ${c.cyan(showPath(entry.path))} ${how}${by} ${c.dim(`(version ${entry.version} kept: ${before})`)}`,
    );
  }
  if (!options.undo) return {};

  const target = pickUndo(entries);
  if (!target) return {};
  const step = stepOf(target, steps);
  let current: string | undefined;
  let restored: string | undefined;
  try {
    current = await readText(target.path);
    await history.restore(target.path, target.version);
    restored = await readText(target.path);
  } catch (error) {
    const message = `could not undo the change of ${showPath(target.path)}: ${(error as Error).message}`;
    output.line();
    output.line(c.red(`Undo failed: ${message}`));
    return { error: message };
  }
  output.line();
  output.line(
    c.bold(
      `Undo${step === undefined ? '' : ` of step ${step}`}: ${showPath(target.path)} restored to version ${target.version}`,
    ),
  );
  if (current !== undefined && restored !== undefined) {
    const blocks = buildDiffBlocks(target.path, current, restored);
    for (const line of renderDiff(blocks, { colors: c, showPath })) output.line(`  ${line}`);
  } else {
    output.line('  (not a text file: no diff shown)');
  }
  return { entry: target, step };
}
