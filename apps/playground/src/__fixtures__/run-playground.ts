import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built program, as `pnpm playground` runs it (`test:e2e` builds it first). */
export const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** What a run of the program printed, and its exit status. */
export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built program without a terminal (approvals are automatic unless scripted). Colour is off (NO_COLOR)
 * unless `env` says otherwise; a key set to undefined removes that variable.
 */
export function runPlayground(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete childEnv.FORCE_COLOR;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
