import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';

const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const CALLS = fileURLToPath(new URL('__fixtures__/promise-hooks-after-calls.mts', import.meta.url));

/** Runs `steps` in a fresh process on `workDir` and returns, per step, its message and whether promises are tracked. */
async function freshProcessRuns(workDir: string, steps: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(TSX, [CALLS, workDir, ...steps]);
  return JSON.parse(stdout);
}

describe('the context that collects observer sections', () => {
  it('is never entered by a read-only call, nor by a write while the runtime has no observers', async ({
    workspace,
  }) => {
    await workspace.write('a.txt', 'one\n');
    expect(
      await freshProcessRuns(workspace.workDir, [
        'read',
        'observedWrite',
        'addObserver',
        'read',
        'observedWrite',
      ]),
    ).toEqual([
      { step: 'read', message: 'Measured.', promisesTracked: false },
      { step: 'observedWrite', message: 'Appended (written).', promisesTracked: false },
      { step: 'addObserver', message: 'Added.', promisesTracked: false },
      { step: 'read', message: 'Measured.', promisesTracked: false },
      // With an observer the write runs in the context, and its section arrives.
      { step: 'observedWrite', message: 'Appended (written).\n\nSeen.', promisesTracked: true },
    ]);
  });

  it('is entered by every call of a contributed tool that does not say otherwise', async ({ workspace }) => {
    await workspace.write('a.txt', 'one\n');
    expect(await freshProcessRuns(workspace.workDir, ['contributedWrite'])).toEqual([
      { step: 'contributedWrite', message: 'Appended (written).', promisesTracked: true },
    ]);
  });
});
