import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';

// docs/reliability.md: a tool never crashes its host. An edit whose result would not fit in memory is refused by the
// output budget before it is built; on a heap capped at HEAP_MB an abort (`JavaScript heap out of memory`) shows as a
// non-zero exit of the child instead of a result.

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const HEAP_MB = 256;
const ROUNDS = iterations(1, 5);

/** Reads `file` then runs one StrReplaceFile call with `edit` in a heap-capped child; its exit code and result. */
function editInChild(
  workDir: string,
  file: string,
  edit: unknown,
): Promise<{ code: number | null; result?: { isError: boolean; message: string } }> {
  const script = `
    import { createRuntime, yoloApproval } from '@kimi-tools/core';
    import { ReadFile } from '@kimi-tools/read';
    import { StrReplaceFile } from '@kimi-tools/replace';
    const [workDir, file, edit] = process.argv.slice(1);
    const runtime = createRuntime({ workDir, approval: yoloApproval() });
    await new ReadFile(runtime).call({ path: file, n_lines: 1 });
    const result = await new StrReplaceFile(runtime).call({ path: file, edit: JSON.parse(edit) });
    process.stdout.write(JSON.stringify({ isError: result.isError, message: result.message }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_MB}`,
        '--input-type=module',
        '-e',
        script,
        workDir,
        file,
        JSON.stringify(edit),
      ],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        result: stdout === '' ? undefined : (JSON.parse(stdout) as { isError: boolean; message: string }),
      }),
    );
  });
}

describe('memory budgets: edits whose result would not fit', () => {
  it('replace_all of a one-character token with 20 million matches in a 40 MB file: an error, nothing written', async ({
    workspace,
  }) => {
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // A token every other byte: 20 million matches in 40 MB (round r shifts the token).
      const token = String.fromCharCode(0x41 + round);
      const content = Buffer.alloc(40 * 1024 * 1024, `${token}\n`);
      const file = await workspace.write(`big-${round}.txt`, content);
      const { code, result } = await editInChild(workspace.workDir, file, {
        old: token,
        new: 'zz',
        replace_all: true,
      });
      expect(code).toBe(0);
      expect(result?.isError).toBe(true);
      expect(result?.message).toMatch(/^Edit 1: the edits would make more than 100000 replacements;/);
      expect((await fs.readFile(file)).equals(content)).toBe(true);
      await fs.rm(file);
      refused++;
    }
    report('memory-budgets replace_all', { rounds: ROUNDS, refused });
  }, 300_000);

  it('40 replace_all edits that each double the text: an error, nothing written', async ({ workspace }) => {
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Few long matches, so the growth budget (not the count) is what stops the doubling.
      const run = 'x'.repeat(1024);
      const file = await workspace.write(`double-${round}.txt`, run);
      const edits = Array.from({ length: 40 }, () => ({ old: run, new: run + run, replace_all: true }));
      const { code, result } = await editInChild(workspace.workDir, file, edits);
      expect(code).toBe(0);
      expect(result?.isError).toBe(true);
      expect(result?.message).toMatch(/^Edit 15: the edits would add more than 16777216 characters/);
      expect(await fs.readFile(file, 'utf8')).toBe(run);
      refused++;
    }
    report('memory-budgets doubling', { rounds: ROUNDS, refused });
  }, 300_000);
});
