import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DATA_ROOT } from './bench-data.js';
import { RESULT_LINE_PREFIX, type ChildReport } from './child-report.js';
import { compileSources } from './compile-sources.js';
import type { OursScript, ReferenceCommand, RunMeasurement } from './types.js';

// GNU time reports a command's peak RSS; without it the reference's memory shows as n/a.
const GNU_TIME = '/usr/bin/time';
const SOURCE_DIR = fileURLToPath(new URL('../', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(argv: readonly string[], captureStdout: boolean): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
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

/** Runs and measures child processes: our scripts (compiled to plain JavaScript first) and reference commands. */
export class ChildRunner {
  private constructor(
    private readonly scratchDir: string,
    private readonly compiledDir: string,
    private readonly hasGnuTime: boolean,
  ) {}

  /** Compiles `bench/src` for our child scripts and finds GNU time. */
  static async create(): Promise<ChildRunner> {
    // One directory per run, so that two runs at once (several people benchmarking) never share compiled files.
    await mkdir(BENCH_DATA_ROOT, { recursive: true });
    const compiledDir = await mkdtemp(path.join(BENCH_DATA_ROOT, '.compiled-'));
    await compileSources(SOURCE_DIR, compiledDir);
    const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'kimi-bench-'));
    return new ChildRunner(scratchDir, compiledDir, await isExecutable(GNU_TIME));
  }

  /** Whether GNU time measures peak memory (else the reference's is unknown and ours is self-reported). */
  get hasPeakMemoryMeter(): boolean {
    return this.hasGnuTime;
  }

  /**
   * Runs `argv` under GNU time when there is one, returning its exit and the peak RSS in bytes. A process forked
   * straight from this (large) harness would count the harness's pages in its own peak, as Linux carries the peak
   * across exec; GNU time is small, and what it reports is the peak of the process it started.
   */
  private async runMetered(argv: readonly string[], captureStdout: boolean) {
    const rssFile = path.join(this.scratchDir, 'rss.txt');
    const metered = this.hasGnuTime ? [GNU_TIME, '-f', '%M', '-o', rssFile, ...argv] : argv;
    const started = performance.now();
    const exit = await run(metered, captureStdout);
    const wallMs = performance.now() - started;
    let peakRssBytes: number | undefined;
    if (this.hasGnuTime) {
      // GNU time puts "Command exited with non-zero status N" first when the command fails; the figure is last.
      const lines = (await readFile(rssFile, 'utf8')).trim().split('\n');
      peakRssBytes = Number(lines[lines.length - 1]) * 1024;
    }
    return { exit, wallMs, peakRssBytes };
  }

  /** Runs the reference once: wall time from spawn to exit, peak RSS from GNU time. */
  async runReference(command: ReferenceCommand): Promise<RunMeasurement> {
    const { exit, wallMs, peakRssBytes } = await this.runMetered(command.argv, false);
    const okCodes = command.okExitCodes ?? [0];
    if (exit.code === null || !okCodes.includes(exit.code)) {
      throw new Error(
        `${command.argv.join(' ')} failed (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderr.trim()}`,
      );
    }
    return { wallMs, peakRssBytes, details: {} };
  }

  /**
   * Runs one of our scripts once, compiled, in a fresh Node process: wall time as the script timed its job, peak
   * RSS from GNU time (or, without it, as the script saw it, which then includes the harness's pages).
   */
  async runOurs(ours: OursScript): Promise<RunMeasurement> {
    const compiled = path.join(
      this.compiledDir,
      path.relative(SOURCE_DIR, ours.script).replace(/\.ts$/, '.js'),
    );
    const { exit, peakRssBytes } = await this.runMetered([process.execPath, compiled, ...ours.args], true);
    const line = exit.stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_LINE_PREFIX));
    if (exit.code !== 0 || line === undefined) {
      throw new Error(
        `${path.basename(ours.script)} failed (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderr.trim()}`,
      );
    }
    const report = JSON.parse(line.slice(RESULT_LINE_PREFIX.length)) as ChildReport;
    return {
      wallMs: report.wallMs,
      peakRssBytes: peakRssBytes ?? report.peakRssBytes,
      details: report.details,
    };
  }

  /** Removes the scratch and compiled directories. */
  async dispose(): Promise<void> {
    await rm(this.scratchDir, { recursive: true, force: true });
    await rm(this.compiledDir, { recursive: true, force: true });
  }
}
