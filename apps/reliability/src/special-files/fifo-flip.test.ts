import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pngBytes, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { allTools } from '../support/all-tools.js';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';

// docs/reliability.md: a tool never hangs. Whether a path is a regular file is decided on the opened descriptor:
// a path that turns into a FIFO between a check and the open must not block the call (nor, by parking libuv's pool
// threads, every later file operation and module load of the process).

const CALLS_PER_TOOL = iterations(150, 2000);
const CALL_LIMIT_MS = 5_000;
const FLIPPER = fileURLToPath(new URL('./fifo-flipper.mjs', import.meta.url));

/** The call's result, or 'hung' when it has not settled within the limit. */
async function settled<T>(call: Promise<T>): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), CALL_LIMIT_MS)));
  try {
    return await Promise.race([call, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('special files: a path flipping between a regular file and a FIFO', () => {
  test('never hangs a tool, and the process still loads and reads files afterwards', async ({
    workspace,
    runtime,
  }) => {
    const regular = await workspace.write('regular.txt', 'line one\nline two\n');
    const fifo = workspace.at('pipe');
    execFileSync('mkfifo', [fifo]);
    const target = workspace.at('flip.txt');
    const flipper = spawn(process.execPath, [FLIPPER, regular, fifo, target], { stdio: 'ignore' });
    const tools = allTools(runtime);
    const calls: Record<string, () => Promise<unknown>> = {
      ReadFile: () => tools.ReadFile!.call({ path: 'flip.txt' }),
      WriteFile: () => tools.WriteFile!.call({ path: 'flip.txt', content: 'line one\nline two\n' }),
      StrReplaceFile: () =>
        tools.StrReplaceFile!.call({ path: 'flip.txt', edit: { old: 'one', new: 'one' } }),
      ReadMediaFile: () => tools.ReadMediaFile!.call({ path: 'flip.txt' }),
    };
    let hung = 0;
    let total = 0;
    try {
      for (let round = 0; round < CALLS_PER_TOOL; round++) {
        for (const call of Object.values(calls)) {
          total++;
          if ((await settled(call())) === 'hung') hung++;
        }
      }
    } finally {
      flipper.kill('SIGKILL');
      // Release whatever a blocking open may still be waiting on, so a failure does not hang the suite too.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader waiting: nothing to release.
      }
    }
    report('special-files', { calls: total, hung });
    expect(hung).toBe(0);

    // Nothing the calls did may leave the process unable to sniff a file type or read a file.
    await workspace.write('image.png', pngBytes());
    const image = await settled(tools.ReadMediaFile!.call({ path: 'image.png' }));
    expect(image === 'hung' ? 'hung' : image.isError).toBe(false);
  }, 240_000);
});
