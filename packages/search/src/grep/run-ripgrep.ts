import type { ExecProcess, FileSystem } from '@kimi-tools/core/fs';
import type { Readable } from 'node:stream';
import { MAX_SEARCH_OUTPUT_BYTES, type SearchRun } from './search-run.js';

/** Keeps the first part of stderr only: enough for the error message, bounded when thousands of paths fail. */
const MAX_STDERR_BYTES = 64 * 1024;

/** What to run, and where: ripgrep through the file system's `exec`, where the files are. */
export interface RipgrepInvocation {
  /** A file system with `exec` (`capabilities.exec`). */
  fs: FileSystem;
  /** The program: a path, or a name the backend looks up on its `PATH`. */
  binary: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output limit in bytes (default {@link MAX_SEARCH_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** Takes each chunk of output as it arrives; `stdout` then stays empty (the output is not kept twice). */
  onStdout?: (chunk: Buffer) => void;
  /** Told the program once it is started (its `pid`, once known, names it on the backend's host). */
  onStart?: (program: ExecProcess) => void;
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

/** No user configuration: the variable that would name one is removed from ripgrep's environment. */
const WITHOUT_CONFIG = { RIPGREP_CONFIG_PATH: undefined };

/**
 * Runs ripgrep through `fs.exec` with stdin closed and no user config, collecting its output. The timeout, the abort
 * signal and the output limit kill it at once; the output gathered so far is kept. Rejects only when the program
 * cannot be started (`ENOENT`: no such program where the files are).
 */
export function runRipgrep(invocation: RipgrepInvocation): Promise<SearchRun> {
  const { signal, fs } = invocation;
  return new Promise((resolve, reject) => {
    let settled = false;
    let child: ExecProcess;
    try {
      if (!fs.exec) throw new Error(`The ${fs.name} file system runs no programs.`);
      child = fs.exec(invocation.binary, invocation.args, { cwd: invocation.cwd, env: WITHOUT_CONFIG });
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

    const kill = () => child.kill();
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
    // Start failures (EMFILE, EAGAIN, ENOENT...) settle `exit`, maybe before the pipes exist: handled first, and
    // every stream gets its own handler, so no error can go unhandled and end the host process.
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanUp();
      kill();
      reject(error);
    };
    const stdoutStream = child.stdout as Readable | null | undefined;
    const stderrStream = child.stderr as Readable | null | undefined;
    if (!stdoutStream || !stderrStream) {
      // Typed as streams, but missing when a local spawn failed before the pipes were made: its own error settles
      // `exit`; this one stands in only if it never comes.
      child.exit.then(
        () => fail(new Error('ripgrep could not be started: its output pipes were not created.')),
        (error: Error) => fail(error),
      );
      return;
    }
    invocation.onStart?.(child);
    stdoutStream.on('error', fail);
    stderrStream.on('error', fail);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();

    const maxOutputBytes = invocation.maxOutputBytes ?? MAX_SEARCH_OUTPUT_BYTES;
    stdoutStream.on('data', (chunk: Buffer) => {
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
    stderrStream.on('data', (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.exit.then(({ code }) => {
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
    }, fail);
  });
}
