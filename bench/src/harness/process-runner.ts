import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildReport } from './child-report.js';
import { compileSources } from './compile-sources.js';
import type { Command, NodeScript, Sample } from './types.js';

// GNU time: the peak RSS and CPU time of a command that is not a Node process (wait4's rusage, exact).
const GNU_TIME = '/usr/bin/time';
const SOURCE_DIR = fileURLToPath(new URL('../', import.meta.url));
// Inside bench/, so that `@kimi-tools/*` resolve from the compiled scripts; node_modules, so nothing lints it.
const COMPILED_ROOT = fileURLToPath(new URL('../../node_modules/.kimi-bench/', import.meta.url));
const PRELOAD = 'harness/peak-rss-preload.js';
const MAX_STDERR_CHARS = 16 * 1024;

/** What a finished process left behind. */
interface Finished {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  wallMs: number;
  stdoutBytes: number;
  stdoutLines: number;
  stderr: string;
  reports: ChildReport[];
}

function childEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // Plain processes: no ripgrep config (our Grep drops it too), no loader or flags inherited from the harness.
  delete env['RIPGREP_CONFIG_PATH'];
  delete env['NODE_OPTIONS'];
  return env;
}

/**
 * Spawns `argv` with stdout drained (a pipe, as a user's host reads it: ripgrep writing to /dev/null would stop at
 * the first match), fd 3 carrying reports when `reportFd` is set, and times it from spawn to exit.
 */
function runProcess(argv: readonly string[], cwd: string | undefined, reportFd: boolean): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env: childEnvironment(),
      stdio: reportFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    let stdoutBytes = 0;
    let stdoutLines = 0;
    let stderr = '';
    let reportText = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) stdoutLines++;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });
    const reportStream = child.stdio[3];
    if (reportStream && 'setEncoding' in reportStream) {
      reportStream.setEncoding('utf8').on('data', (chunk: string) => (reportText += chunk));
    }
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      const wallMs = performance.now() - started;
      const reports = reportText
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as ChildReport);
      resolve({ exitCode, signal, wallMs, stdoutBytes, stdoutLines, stderr, reports });
    });
  });
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function describeFailure(what: string, finished: Finished): Error {
  return new Error(
    `${what} failed (${finished.signal ?? `exit ${finished.exitCode}`}): ${finished.stderr.trim()}`,
  );
}

/** Runs and measures the processes of the bench: our scripts (compiled to JavaScript first) and commands. */
export class ProcessRunner {
  private constructor(
    private readonly compiledDir: string,
    private readonly scratchDir: string,
    /** Whether GNU time is there to measure commands. */
    readonly measuresCommands: boolean,
  ) {}

  /** Compiles `bench/src` for our scripts and looks for GNU time. */
  static async create(): Promise<ProcessRunner> {
    await mkdir(COMPILED_ROOT, { recursive: true });
    // One directory per run, so that two runs at once never share compiled files.
    const compiledDir = await mkdtemp(path.join(COMPILED_ROOT, 'run-'));
    await compileSources(SOURCE_DIR, compiledDir);
    const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'kimi-bench-'));
    return new ProcessRunner(compiledDir, scratchDir, await isExecutable(GNU_TIME));
  }

  /** The compiled JavaScript of a `bench/src` script; a JavaScript file (e.g. a bundle a benchmark made) as it is. */
  compiled(script: string): string {
    if (!script.endsWith('.ts')) return script;
    return path.join(this.compiledDir, path.relative(SOURCE_DIR, script).replace(/\.ts$/, '.js'));
  }

  /** Runs `side` once in a fresh process. */
  run(side: NodeScript | Command): Promise<Sample> {
    return side.kind === 'node' ? this.runScript(side) : this.runCommand(side);
  }

  /**
   * A Node process: `node --import <preload> script args`. Its peak RSS (VmHWM) and CPU time come from the preload,
   * its details from the script, both on fd 3.
   */
  async runScript(script: NodeScript): Promise<Sample> {
    const argv = [
      process.execPath,
      '--import',
      path.join(this.compiledDir, PRELOAD),
      this.compiled(script.script),
      ...script.args,
    ];
    const finished = await runProcess(argv, script.cwd, true);
    if (finished.exitCode !== 0) throw describeFailure(path.basename(script.script), finished);
    const sample: Sample = {
      wallMs: finished.wallMs,
      peakRssBytes: undefined,
      cpuMs: undefined,
      details: { stdoutBytes: finished.stdoutBytes, stdoutLines: finished.stdoutLines },
    };
    for (const report of finished.reports) {
      if (report.type === 'process') {
        sample.peakRssBytes = report.peakRssBytes;
        sample.cpuMs = report.cpuMs;
      } else if (report.type === 'details') {
        Object.assign(sample.details, report.details);
      } else {
        sample.pairs = { ours: report.ours, reference: report.reference };
      }
    }
    return sample;
  }

  /** A command, under GNU time when there is one (its own start-up, about a millisecond, is in the wall time). */
  async runCommand(command: Command): Promise<Sample> {
    const measureFile = path.join(this.scratchDir, 'time.txt');
    const argv = this.measuresCommands
      ? [GNU_TIME, '-f', '%M %U %S', '-o', measureFile, ...command.argv]
      : command.argv;
    const finished = await runProcess(argv, command.cwd, false);
    const okCodes = command.okExitCodes ?? [0];
    if (finished.exitCode === null || !okCodes.includes(finished.exitCode)) {
      throw describeFailure(command.argv.join(' '), finished);
    }
    const sample: Sample = {
      wallMs: finished.wallMs,
      peakRssBytes: undefined,
      cpuMs: undefined,
      details: { stdoutBytes: finished.stdoutBytes, stdoutLines: finished.stdoutLines },
    };
    if (this.measuresCommands) {
      // GNU time puts "Command exited with non-zero status N" first when the command fails; the figures are last.
      const lines = (await readFile(measureFile, 'utf8')).trim().split('\n');
      const [kilobytes, userSeconds, systemSeconds] = lines[lines.length - 1]!.split(' ').map(Number);
      sample.peakRssBytes = kilobytes! * 1024;
      sample.cpuMs = (userSeconds! + systemSeconds!) * 1000;
    }
    return sample;
  }

  /** Removes the compiled scripts and the scratch directory. */
  async dispose(): Promise<void> {
    await rm(this.scratchDir, { recursive: true, force: true });
    await rm(this.compiledDir, { recursive: true, force: true });
  }
}
