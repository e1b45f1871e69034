import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { toolResultProblem } from '../support/tool-result-shape.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Runs one Glob call in a child capped at 128 MB of heap; resolves with its exit code and what it printed. */
function globInChild(workDir: string, pattern: string): Promise<{ code: number | null; stdout: string }> {
  const script = `
    import { createRuntime, yoloApproval } from '@kimi-tools/core';
    import { Glob } from '@kimi-tools/search';
    const [workDir, pattern] = process.argv.slice(1);
    const glob = new Glob(createRuntime({ workDir, approval: yoloApproval() }));
    process.stdout.write(JSON.stringify(await glob.call({ pattern })));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=128', '--input-type=module', '-e', script, workDir, pattern],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('Glob with a brace pattern whose expansion is astronomically large', () => {
  // Found by this suite: expandBraces built the whole cartesian product (2^40 strings) before checking its size,
  // blocking the event loop until the process died out of memory. Fixed in search (ae209ca) by counting the
  // expansion first; the 128 MB heap cap makes a regression fail in seconds instead of hanging.
  it('answers (with matches or a clear error) instead of exhausting memory', async ({ workspace }) => {
    const { code, stdout } = await globInChild(workspace.workDir, '{a,b}'.repeat(40));
    expect(code).toBe(0);
    expect(toolResultProblem(JSON.parse(stdout))).toBeUndefined();
  });

  it('answers a modest brace pattern normally (the child harness itself works)', async ({ workspace }) => {
    const { code, stdout } = await globInChild(workspace.workDir, '{a,b}'.repeat(3));
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { isError: boolean; message: string };
    expect(result.isError).toBe(false);
    expect(result.message).toBe(`No matches found for pattern \`${'{a,b}'.repeat(3)}\`.`);
  });
});
