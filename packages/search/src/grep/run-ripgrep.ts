import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Keeps the first part of stderr only: enough for the error message, bounded when thousands of paths fail. */
const MAX_STDERR_BYTES = 64 * 1024;

/** ripgrep output kept at most; past it ripgrep is stopped, so a pattern matching everything cannot exhaust memory. */
export const MAX_RIPGREP_OUTPUT_BYTES = 64 * 1024 * 1024;

/** How a ripgrep run ended. */
export interface RipgrepRun {
  /** What ripgrep printed, unless `onStdout` took it. */
  stdout: Buffer;
  stderr: string;
  /** ripgrep's exit code; `null` when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped because its output passed {@link MAX_RIPGREP_OUTPUT_BYTES}. */
  outputCapped: boolean;
}

/** What to run. */
export interface RipgrepInvocation {
  binary: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output limit in bytes (default {@link MAX_RIPGREP_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** Takes each chunk of output as it arrives; `stdout` then stays empty (the output is not kept twice). */
  onStdout?: (chunk: Buffer) => void;
  /** Told ripgrep's process id once it is started. */
  onSpawn?: (pid: number) => void;
}

/**
 * What ripgrep prints, exiting with 2, when its filters left no file to search and no path was given. For Grep that
 * is an empty result, not an error: the model cannot run `--debug`.
 */
const NO_FILES_SEARCHED =
  /^rg: No files were searched, which means ripgrep probably applied a filter you didn't expect\.\r?\nRunning with --debug will show why files are being skipped\.\r?\n?/m;

/** The exit code and stderr without ripgrep's "no files were searched" warning (exit 2 → 1 when nothing else failed). */
function withoutNoFilesWarning(
  exitCode: number | null,
  stderr: string,
): { exitCode: number | null; stderr: string } {
  if (exitCode !== 2 || !NO_FILES_SEARCHED.test(stderr)) return { exitCode, stderr };
  const rest = stderr.replace(NO_FILES_SEARCHED, '');
  return { exitCode: rest.trim() === '' ? 1 : exitCode, stderr: rest };
}

function environmentWithoutConfig(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['RIPGREP_CONFIG_PATH'];
  return env;
}

/**
 * Runs ripgrep with stdin closed and no user config, collecting its output. The timeout, the abort signal and the
 * output limit kill it at once; the output gathered so far is kept. Rejects only when the process cannot be started.
 */
export function runRipgrep(invocation: RipgrepInvocation): Promise<RipgrepRun> {
  const { signal } = invocation;
  return new Promise((resolve, reject) => {
    let settled = false;
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(invocation.binary, invocation.args, {
        cwd: invocation.cwd,
        env: environmentWithoutConfig(),
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let stdoutBytes = 0;
    let outputCapped = false;
    let timedOut = false;
    let aborted = false;

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, invocation.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    const cleanUp = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    // Spawn failures (EMFILE, EAGAIN, ENOENT...) arrive as an 'error' event, maybe before the pipes exist: handled
    // first, and every stream gets its own handler, so no error can go unhandled and end the host process.
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanUp();
      kill();
      reject(error);
    };
    child.on('error', fail);
    if (child.pid !== undefined) invocation.onSpawn?.(child.pid);
    // Typed as streams, but missing when the spawn failed before the pipes were made.
    if (!(child.stdout as Readable | null | undefined) || !(child.stderr as Readable | null | undefined)) {
      // The spawn's own error (EMFILE...) is emitted on the next tick; this one stands in only if it never comes.
      setImmediate(() => fail(new Error('ripgrep could not be started: its output pipes were not created.')));
      return;
    }
    child.stdout.on('error', fail);
    child.stderr.on('error', fail);
    signal?.addEventListener('abort', onAbort, { once: true });

    const maxOutputBytes = invocation.maxOutputBytes ?? MAX_RIPGREP_OUTPUT_BYTES;
    child.stdout.on('data', (chunk: Buffer) => {
      if (outputCapped) return;
      if (!invocation.onStdout) stdout.push(chunk);
      else {
        // A throw in a stream handler would end the host process: it fails this run instead.
        try {
          invocation.onStdout(chunk);
        } catch (error) {
          fail(error instanceof Error ? error : new Error(String(error)));
          return;
        }
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) {
        outputCapped = true;
        kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      cleanUp();
      const outcome = withoutNoFilesWarning(code, Buffer.concat(stderr).toString('utf8'));
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: outcome.stderr,
        exitCode: outcome.exitCode,
        timedOut,
        aborted,
        outputCapped,
      });
    });
  });
}
