import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it, testSshServer } from '@kimi-tools/test-kit';
import { describe, expect, onTestFinished } from 'vitest';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';

// docs/read-state.md, docs/reliability.md (no edit is lost silently): agents in separate processes, each with its own
// runtime, run read → WriteFile(counter + 1) on one file. Every write keeps the size, and writes milliseconds apart
// may get the same coarse modification time: only a read state that sees content (or the whole stamp), checked
// together with the write under the file lock, keeps every reported write. The counter must end equal to the number
// of writes the agents were told succeeded.

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./counter-child.mjs', import.meta.url));
const PROCESSES = iterations(3, 20);
const ROUNDS = iterations(100, 300);
/** A bounded run takes seconds; a soak run of many processes takes minutes. */
const TIMEOUT_MS = iterations(120_000, 600_000);

interface ChildReport {
  written: number;
  refused: Record<string, number>;
}

interface Child {
  ready: Promise<void>;
  go: () => void;
  /** Ends the process if it still runs: a test that failed or timed out leaves none behind. */
  kill: () => void;
  done: Promise<{ code: number | null; report?: ChildReport; stderr: string }>;
}

function startChild(workDir: string, file: string): Child {
  const child = spawn(
    process.execPath,
    [CHILD, JSON.stringify({ workDir, file, rounds: ROUNDS, ssh: testSshServer() })],
    {
      cwd: PACKAGE_DIR,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; report?: ChildReport; stderr: string }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        // A child that died before `ready` must not leave the test waiting for it.
        markReady();
        const last = stdout.trim().split('\n').at(-1) ?? '';
        resolve({
          code,
          report: last.startsWith('{') ? (JSON.parse(last) as ChildReport) : undefined,
          stderr,
        });
      });
    },
  );
  return { ready, go: () => child.stdin.end('go\n'), done, kill: () => child.kill('SIGKILL') };
}

describe('cross-process read-modify-write on one file', () => {
  it('keeps every write an agent was told succeeded', { timeout: TIMEOUT_MS }, async ({ workspace }) => {
    const file = await workspace.write('counter.txt', `counter=${'0'.padStart(8, '0')}\n`);
    const children = Array.from({ length: PROCESSES }, () => startChild(workspace.workDir, 'counter.txt'));
    onTestFinished(() => children.forEach((child) => child.kill()));
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const results = await Promise.all(children.map((child) => child.done));

    // A child that crashed shows its stderr.
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const written = results.reduce((sum, result) => sum + (result.report?.written ?? 0), 0);
    const refused: Record<string, number> = {};
    for (const result of results) {
      for (const [brief, times] of Object.entries(result.report?.refused ?? {})) {
        refused[brief] = (refused[brief] ?? 0) + times;
      }
    }
    const counter = Number(/counter=(\d+)/.exec(await fs.readFile(file, 'utf8'))?.[1]);
    report('cross-process', {
      processes: PROCESSES,
      rounds: ROUNDS,
      written,
      counter,
      lost: written - counter,
      ...Object.fromEntries(Object.entries(refused).map(([brief, times]) => [`refused(${brief})`, times])),
    });
    expect(written).toBeGreaterThan(0);
    expect(counter).toBe(written);
  });
});
