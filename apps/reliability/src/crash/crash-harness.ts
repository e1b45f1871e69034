import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestSshServer } from '@kimi-tools/test-kit';

const CHILD_SCRIPT = fileURLToPath(new URL('./crash-child.mjs', import.meta.url));

/** What the child was told to do (see crash-child.mjs). */
export interface CrashChildConfig {
  workDir: string;
  file: string;
  /** `patch` mode: every file one ApplyPatch call changes (`file` among them). */
  files?: string[];
  mode: 'write' | 'replace' | 'patch';
  /** The version the file holds when the child starts. */
  start: number;
  versionsDir: string;
  versions: number;
  markerWidth: number;
  /** The run's SSH server, when the tools are to work over it (a kill then drops the connection mid-call). */
  ssh?: TestSshServer;
}

/** What the child's log says about the moment it died. */
export interface KilledRun {
  /** The last version the child started writing, if any. */
  lastStarted: number | undefined;
  /** The last version whose call returned, if any. */
  lastDone: number | undefined;
  /** Milliseconds between the first and the last `start` line seen, and how many there were. */
  startSpanMs: number;
  starts: number;
}

/**
 * Runs the child until it is ready, lets it work for `delayMs`, then SIGKILLs it. Rejects when the child dies on
 * its own (an error result, a crash) or never gets ready.
 */
export function runAndKill(config: CrashChildConfig, delayMs: number): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD_SCRIPT, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killedByUs = false;
    let lastStarted: number | undefined;
    let lastDone: number | undefined;
    let firstStartAt: number | undefined;
    let lastStartAt = 0;
    let starts = 0;
    const readyTimeout = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the crash child never got ready; stderr: ${stderr}`));
    }, 60_000);

    const onLine = (line: string) => {
      if (line === 'ready') {
        clearTimeout(readyTimeout);
        setTimeout(() => {
          killedByUs = true;
          child.kill('SIGKILL');
        }, delayMs);
      } else if (line.startsWith('start ')) {
        lastStarted = Number(line.slice(6));
        const now = performance.now();
        firstStartAt ??= now;
        lastStartAt = now;
        starts++;
      } else if (line.startsWith('done ')) {
        lastDone = Number(line.slice(5));
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      let newline = stdout.indexOf('\n');
      while (newline >= 0) {
        onLine(stdout.slice(0, newline));
        stdout = stdout.slice(newline + 1);
        newline = stdout.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(readyTimeout);
      if (!killedByUs || signal !== 'SIGKILL') {
        reject(
          new Error(`the crash child exited by itself (code ${code}, signal ${signal}): ${stdout} ${stderr}`),
        );
        return;
      }
      const startSpanMs = firstStartAt === undefined ? 0 : lastStartAt - firstStartAt;
      resolve({ lastStarted, lastDone, startSpanMs, starts });
    });
  });
}
