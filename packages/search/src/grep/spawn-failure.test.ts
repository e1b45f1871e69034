import { closeSync, openSync } from 'node:fs';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { Grep } from './grep.js';

/** Opens `/dev/null` until the process has no descriptor left but `spare`, runs `body`, then frees them all. */
async function withDescriptorsExhausted<T>(spare: number, body: () => Promise<T>): Promise<T> {
  const held: number[] = [];
  try {
    for (;;) held.push(openSync('/dev/null', 'r'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EMFILE') throw error;
  }
  for (let index = 0; index < spare; index++) closeSync(held.pop() as number);
  try {
    return await body();
  } finally {
    for (const fd of held) closeSync(fd);
  }
}

// No file descriptor free when ripgrep is spawned (issue: an unhandled 'error' event used to end the host process).
// The limit is real, reached by holding descriptors; `/dev/null` is what every Unix-like system has.
describe.runIf(process.platform !== 'win32')('Grep when spawning ripgrep fails', () => {
  it('returns an error result for EMFILE and works again once descriptors are free', async ({
    workspace,
  }) => {
    await workspace.write('a.txt', 'zebra\n');
    const tool = new Grep(workspace.runtime());
    // Found once beforehand, so the spawn is the first thing to need a descriptor.
    expect((await tool.call({ pattern: 'zebra' })).output).toBe('a.txt');
    for (const spare of [0, 1, 2, 3]) {
      const result = await withDescriptorsExhausted(spare, () => tool.call({ pattern: 'zebra' }));
      expect(result, `spare ${spare}`).toMatchObject({ isError: true, brief: 'Failed to grep' });
      expect(result.message, `spare ${spare}`).toMatch(/^Failed to grep\. Error: .*EMFILE/);
    }
    expect((await tool.call({ pattern: 'zebra' })).output).toBe('a.txt');
  });
});
