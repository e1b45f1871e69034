import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCheckpoints } from '@kimi-tools/checkpoints';
import { createRuntime, FileHistory, type ToolRuntime } from '@kimi-tools/core';
import { addDiagnostics } from '@kimi-tools/diagnostics';
import { PlaygroundApproval, type FallbackAnswerer } from './approval-ui.js';
import { parsePlaygroundArgs, type PlaygroundArgs } from './cli-args.js';
import { loadPermissions, type SessionPermissions } from './permissions-file.js';
import { createFileTools } from './file-tools.js';
import { HELP_TEXT } from './help-text.js';
import { reportHistory } from './history-report.js';
import { createStreamOutput, type Output } from './output.js';
import { openPlace, type OpenedPlace } from './places.js';
import { DEFAULT_SCRIPT_PATH, loadScript, type ScriptStep } from './script.js';
import { runSession, type SessionReport } from './session-runner.js';
import { createTerminalPrompter, type LinePrompter } from './terminal-prompt.js';
import { pathShower, prepareWorkspace, type Workspace } from './workspace.js';
import { fillPlaceholders } from './placeholders.js';

/** The process streams and environment the playground runs with. */
export interface PlaygroundIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** Aborted when the user interrupts (Ctrl-C outside a prompt): the running call is aborted and the session stops. */
  interrupt?: AbortSignal;
}

/** Exit statuses. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

function usageError(io: PlaygroundIo, message: string): number {
  io.stderr.write(`kimi-tools playground: ${message}\nRun with --help for usage.\n`);
  return EXIT.usage;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function printIntro(
  output: Output,
  workspace: Workspace,
  place: OpenedPlace,
  scriptPath: string,
  answering: string,
  toolNames: string[],
  permissions: SessionPermissions,
): void {
  const c = output.colors;
  output.line(c.bold('kimi-tools playground') + c.dim(' — a fake model drives the file tools'));
  const where = workspace.isSampleCopy
    ? ' (a copy of the sample project)'
    : ' (your directory: changes are real)';
  output.line(`  ${c.dim('work dir:')} ${workspace.workDir}${where}`);
  output.line(`  ${c.dim('outside: ')} ${workspace.outsideDir} ({{outside}}, not in the workspace)`);
  output.line(`  ${c.dim('files on:')} ${place.description}`);
  output.line(`  ${c.dim('script:  ')} ${scriptPath}`);
  output.line(`  ${c.dim('tools:   ')} ${toolNames.join(', ')}`);
  output.line(`  ${c.dim('answers: ')} ${answering}`);
  if (permissions.source !== undefined) {
    const count = `${permissions.rules.length} rule${permissions.rules.length === 1 ? '' : 's'}`;
    output.line(`  ${c.dim('rules:   ')} ${count} from ${permissions.source}`);
    for (const rule of permissions.rules) output.line(`  ${c.dim('         ')} ${rule}`);
  }
  output.line();
}

function printSummary(
  output: Output,
  report: SessionReport,
  unusedAnswers: number,
  undoError?: string,
): number {
  const c = output.colors;
  const calls = report.steps.filter((step) => step.result !== undefined);
  const errors = calls.filter((step) => step.result?.isError).length;
  const checked = report.steps.reduce((total, step) => total + step.checked, 0);
  const failed = report.steps.filter((step) => step.failures.length > 0);
  const failures = failed.reduce((total, step) => total + step.failures.length, 0);
  output.line();
  output.line(c.bold('Summary'));
  output.line(
    `  ${calls.length} tool call${calls.length === 1 ? '' : 's'}, ${errors} returned an error to the model`,
  );
  if (report.stopped) output.line(`  ${c.yellow('stopped early: interrupted')}`);
  if (unusedAnswers > 0)
    output.line(
      `  ${c.yellow(`${unusedAnswers} --answers entr${unusedAnswers === 1 ? 'y was' : 'ies were'} not used`)}`,
    );
  if (undoError) output.line(`  ${c.red('✗')} undo failed: ${undoError}`);
  if (failures === 0) {
    const passed = checked === 0 ? 'no expectations to check' : `all ${checked} expectation checks passed`;
    output.line(`  ${c.green('✓')} ${passed}`);
    return undoError ? EXIT.failed : EXIT.ok;
  }
  output.line(`  ${c.red('✗')} ${failures} of ${checked} expectation checks failed:`);
  for (const step of failed) {
    const call = step.step.name ?? 'say';
    for (const failure of step.failures) output.line(`    step ${step.number} (${call}): ${failure}`);
    if (step.approvals.some((record) => record.source === 'you')) {
      output.line(
        c.dim(`    (you answered step ${step.number}'s prompt yourself; the script expected another answer)`),
      );
    }
  }
  return EXIT.failed;
}

/** Runs the playground with a command line; resolves to the exit status. */
export async function runPlayground(argv: readonly string[], io: PlaygroundIo): Promise<number> {
  const args = parsePlaygroundArgs(argv);
  if ('error' in args) return usageError(io, args.error);
  if (args.help) {
    io.stdout.write(HELP_TEXT);
    return EXIT.ok;
  }
  const scriptPath = args.script ?? DEFAULT_SCRIPT_PATH;
  const script = await loadScript(scriptPath);
  if ('error' in script) return usageError(io, script.error);
  if (args.workdir !== undefined && !(await isDirectory(args.workdir))) {
    return usageError(io, `--workdir ${args.workdir} is not a directory.`);
  }

  const place = await openPlace(args.place);
  if ('error' in place) return usageError(io, place.error);
  try {
    return await runOn(place, args, script.steps, scriptPath, io);
  } finally {
    await place.close();
  }
}

/** Plays the session on the file system of `place`. */
async function runOn(
  place: OpenedPlace,
  args: PlaygroundArgs,
  steps: ScriptStep[],
  scriptPath: string,
  io: PlaygroundIo,
): Promise<number> {
  const output = createStreamOutput(io.stdout, io.env);
  const workspace = await prepareWorkspace(place.fs, place.tempParent, args.workdir);
  // The checkpoints' store is always on this machine's disk, whatever the files are on: a temporary one here.
  const store = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-playground-checkpoints-'));
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true && !args.yolo;
  const prompter: LinePrompter | undefined = interactive
    ? createTerminalPrompter(io.stdin, io.stdout)
    : undefined;
  let runtime: ToolRuntime | undefined;
  try {
    const fallback: FallbackAnswerer = prompter
      ? { kind: 'interactive', prompter }
      : { kind: 'auto', reason: args.yolo ? '--yolo' : 'no terminal' };
    const permissions = await loadPermissions(args.permissions, workspace.workDir, place.fs);
    if ('error' in permissions) return usageError(io, permissions.error);
    const showPath = pathShower(workspace.workDir);
    const placeholders = { workdir: workspace.workDir, outside: workspace.outsideDir };
    const editor = io.env.VISUAL || io.env.EDITOR;
    const approval = new PlaygroundApproval({
      output,
      showPath,
      answers: args.answers,
      fallback,
      ...(editor ? { editor } : {}),
      resolvePath: (file) => path.resolve(workspace.workDir, fillPlaceholders(file, placeholders)),
      permissionRules: permissions.rules.length > 0,
    });
    const history = new FileHistory();
    runtime = createRuntime({
      workDir: workspace.workDir,
      approval,
      history,
      fs: place.fs,
      permissions: permissions.rules,
    });
    const checkpoints = createCheckpoints(runtime, { dir: store });
    // Every write reports the syntax errors it introduced, as a host with @kimi-tools/diagnostics sees them.
    addDiagnostics(runtime);
    const answering = [
      args.answers.length > 0 ? `${args.answers.length} from --answers, then ` : '',
      prompter
        ? 'you, in this terminal (y / a / n / h / e)'
        : `automatic approval (${args.yolo ? '--yolo' : 'no terminal'})`,
      "; a step's own answer comes first",
    ].join('');
    const tools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } });
    printIntro(output, workspace, place, scriptPath, answering, [...tools.names], permissions);

    const report = await runSession({
      steps,
      tools,
      approval,
      history,
      checkpoints,
      fs: place.fs,
      output,
      placeholders,
      signal: io.interrupt,
      shouldStop: () => prompter?.interrupted === true || io.interrupt?.aborted === true,
    });
    const undone = report.stopped
      ? {}
      : await reportHistory({
          history,
          fs: place.fs,
          steps: report.steps,
          output,
          showPath,
          undo: args.undo,
        });
    const status = printSummary(output, report, approval.unusedAnswers, undone.error);
    return report.stopped ? EXIT.interrupted : status;
  } finally {
    await runtime?.close();
    prompter?.close();
    if (args.keep) output.line(`Kept ${workspace.tempRoot}`);
    else await workspace.cleanup();
    await fs.rm(store, { recursive: true, force: true });
  }
}
