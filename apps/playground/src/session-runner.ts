import type { Checkpoint, Checkpoints } from '@kimi-tools/checkpoints';
import type { FileHistory, HistoryEntry, ToolReturnValue, ToolSet } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import type { ApprovalRecord, PlaygroundApproval } from './approval-ui.js';
import { checkExpectations } from './expectations.js';
import type { Output } from './output.js';
import type { PlaygroundTool } from './file-tools.js';
import type { Placeholders } from './placeholders.js';
import { renderResult } from './result-render.js';
import type { ScriptStep } from './script.js';
import { argumentsText } from './tool-call.js';

/** Everything a session needs. */
export interface SessionContext {
  steps: readonly ScriptStep[];
  /** The tools the fake model calls, by name (an unknown name is answered by the tool set's `Tool not found`). */
  tools: ToolSet<PlaygroundTool>;
  approval: PlaygroundApproval;
  history: FileHistory;
  /** The runtime's checkpoints: one is taken at each user message. */
  checkpoints: Pick<Checkpoints, 'create'>;
  /** The file system the session runs on, where expectations look at files. */
  fs: FileSystem;
  output: Output;
  placeholders: Placeholders;
  /** Passed to every call: aborting it aborts the running call (e.g. kills a Grep). */
  signal?: AbortSignal;
  /** Asked after every step: `true` stops the session (e.g. Ctrl-C). */
  shouldStop?: () => boolean;
}

/** What one step did. */
export interface StepReport {
  /** 1-based. */
  number: number;
  step: ScriptStep;
  /** The result, when the step made a call. */
  result?: ToolReturnValue;
  /** The approval requests the call made, with their answers. */
  approvals: ApprovalRecord[];
  /** The history versions this step saved (the files it changed). */
  saved: HistoryEntry[];
  /** The checkpoint a user message took. */
  checkpoint?: Checkpoint;
  /** Expectation checks run and failed. */
  checked: number;
  failures: string[];
}

/** What a session did. */
export interface SessionReport {
  steps: StepReport[];
  /** Whether the session stopped before its last step. */
  stopped: boolean;
}

/** Characters of a call's arguments shown in the transcript (the full change is in the approval's diff). */
const MAX_SHOWN_ARGUMENT_CHARS = 300;

function clipArguments(text: string): string {
  if (text.length <= MAX_SHOWN_ARGUMENT_CHARS) return text;
  return `${text.slice(0, MAX_SHOWN_ARGUMENT_CHARS)}… (${text.length - MAX_SHOWN_ARGUMENT_CHARS} more chars)`;
}

async function runStep(
  context: SessionContext & { firstCheckpoint: boolean },
  step: ScriptStep,
  number: number,
): Promise<StepReport> {
  const { output, approval, history, placeholders } = context;
  const c = output.colors;
  output.line(c.dim(`── step ${number}/${context.steps.length} ${'─'.repeat(40)}`));
  if (step.say !== undefined) output.line(`${c.magenta('model')}  ${c.italic(step.say)}`);
  const report: StepReport = { number, step, approvals: [], saved: [], checked: 0, failures: [] };
  if (step.user !== undefined) {
    // A host takes a checkpoint at each user message: the workspace as it is before the model acts on it.
    report.checkpoint = await context.checkpoints.create(step.user);
    output.line(`${c.green('user')}   ${step.user}`);
    output.line(`  ${c.green('⚑')} ${c.dim(checkpointLine(report.checkpoint, context.firstCheckpoint))}`);
    context.firstCheckpoint = false;
    return report;
  }
  if (step.name === undefined) return report;

  const jsonText = argumentsText(step.arguments, placeholders);
  output.line(`  ${c.cyan('→')} ${c.bold(step.name)} ${clipArguments(jsonText)}`);
  const savedBefore = history.list().length;
  approval.beginStep(step.answer, step.edit);
  const result = await context.tools.call(step.name, jsonText, { signal: context.signal });
  const approvals = approval.endStep();
  report.result = result;
  report.approvals = approvals;
  report.saved = history.list().slice(savedBefore);
  for (const line of renderResult(result, c)) output.line(line);

  if (step.expect) {
    const checks = await checkExpectations(
      step.expect,
      { result, approvals },
      { fs: context.fs, workDir: placeholders.workdir },
      placeholders,
    );
    report.checked = checks.checked;
    report.failures = checks.failures;
    if (checks.failures.length === 0) {
      output.line(
        `  ${c.green('✓')} ${c.dim(`expectations met (${checks.checked} check${checks.checked === 1 ? '' : 's'})`)}`,
      );
    }
    for (const failure of checks.failures) output.line(`  ${c.red('✗ expectation failed:')} ${failure}`);
  }
  return report;
}

/**
 * What the transcript says of a checkpoint taken at a user message: its files are the changes since the checkpoint
 * before it (the session's first has every file as created, which says nothing).
 */
function checkpointLine(checkpoint: Checkpoint, first: boolean): string {
  const head = `checkpoint ${checkpoint.id} taken`;
  if (first) return `${head}: the files before this message`;
  const changed = checkpoint.files.map((file) => file.path);
  if (changed.length === 0) return `${head}: no file changed since the last one`;
  const files = changed.length === 1 ? '1 file' : `${changed.length} files`;
  return `${head}: ${files} changed since the last one (${changed.join(', ')})`;
}

/**
 * Plays the steps in order, printing each call, its approval prompt and its result, and checks expectations; takes a
 * checkpoint at each user message.
 */
export async function runSession(context: SessionContext): Promise<SessionReport> {
  const steps: StepReport[] = [];
  const running = { ...context, firstCheckpoint: true };
  for (const [index, step] of context.steps.entries()) {
    steps.push(await runStep(running, step, index + 1));
    context.output.line();
    if (context.shouldStop?.() && index < context.steps.length - 1) return { steps, stopped: true };
  }
  return { steps, stopped: false };
}
