import type { FileHistory, HistoryEntry } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import { buildDiffBlocks, decodeText } from '@kimi-tools/core/toolkit';
import { renderDiff } from './diff-render.js';
import type { Output } from './output.js';
import type { StepReport } from './session-runner.js';
import { readBytesIfThere } from './session-files.js';

/** Options of {@link reportHistory}. */
export interface HistoryReportOptions {
  history: FileHistory;
  /** The file system the session's files are on. */
  fs: FileSystem;
  steps: readonly StepReport[];
  output: Output;
  showPath: (realPath: string) => string;
  /** Whether to undo the last change. */
  undo: boolean;
}

/** What {@link reportHistory} undid, or why the undo failed. */
export interface UndoOutcome {
  /** The versions that were restored: every file of the last change. */
  entries?: HistoryEntry[];
  /** The step whose change was undone, when known. */
  step?: number;
  /** Why the undo failed, when it did. */
  error?: string;
}

/** A file's text (`''` when it is not there), or `undefined` when it is not text. */
async function readText(fs: FileSystem, file: string): Promise<string | undefined> {
  const bytes = await readBytesIfThere(fs, file);
  if (bytes === undefined) return '';
  const decoded = decodeText(bytes);
  return decoded.ok ? decoded.decoded.text : undefined;
}

function stepOf(entry: HistoryEntry, steps: readonly StepReport[]): number | undefined {
  return steps.find((report) =>
    report.saved.some((saved) => saved.path === entry.path && saved.version === entry.version),
  )?.number;
}

/**
 * Lists the versions the runtime's file history saved (one per file changed), then, when asked, undoes the last
 * change with `history.undo()`: every file of it at once (all the files of a patch), and shows the diff of each.
 */
export async function reportHistory(options: HistoryReportOptions): Promise<UndoOutcome> {
  const { history, fs, steps, output, showPath } = options;
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

  // The undo tells which files it restored only once done: read every file the history knows first.
  const paths = [...new Set(entries.map((entry) => entry.path))];
  let undone: HistoryEntry[];
  const before = new Map<string, string | undefined>();
  try {
    for (const file of paths) before.set(file, await readText(fs, file));
    undone = await history.undo();
  } catch (error) {
    const message = `could not undo the last change: ${(error as Error).message}`;
    output.line();
    output.line(c.red(`Undo failed: ${message}`));
    return { error: message };
  }
  const step = undone[0] && stepOf(undone[0], steps);
  const files = undone.length === 1 ? '1 file' : `${undone.length} files`;
  output.line();
  output.line(
    c.bold(`Undo of ${step === undefined ? 'the last change' : `step ${step}`}: ${files} restored`),
  );
  for (const entry of undone) {
    const was = before.get(entry.path);
    const now = await readText(fs, entry.path);
    const how =
      entry.size === null ? 'removed (it did not exist before)' : `restored to version ${entry.version}`;
    output.line(`  ${c.cyan(showPath(entry.path))} ${how}`);
    if (was !== undefined && now !== undefined) {
      const blocks = buildDiffBlocks(entry.path, was, now);
      for (const line of renderDiff(blocks, { colors: c, showPath })) output.line(`  ${line}`);
    } else {
      output.line('  (not a text file: no diff shown)');
    }
  }
  return { entries: undone, ...(step === undefined ? {} : { step }) };
}
