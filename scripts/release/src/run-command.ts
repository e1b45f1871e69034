import { spawn } from 'node:child_process';

/** How a command ended and what it printed. */
export interface CommandResult {
  /** The exit code, or null when a signal (the timeout's, say) ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where and how a command runs. */
export interface CommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Killed after this long (default 5 minutes), so a stuck install fails the run instead of hanging it. */
  timeoutMs?: number;
}

/** Runs a command to its end, its output captured. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 300_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command and returns its standard output; throws with what it printed when it fails. */
export async function mustRun(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.code}) in ${options.cwd}:\n${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
}
