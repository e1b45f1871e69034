import { test as baseTest } from 'vitest';
import { createTempWorkspace } from './temp-workspace.js';

/**
 * vitest's `test` with three fixtures, each made only when a test names it:
 * - `workspace`: a fresh {@link TempWorkspace} of the test's own, removed when the test ends (passed or failed);
 * - `approval`: the workspace's recording approval (what `runtime` asks);
 * - `runtime`: a runtime on the workspace's work dir with default options and that approval.
 *
 * `test('writes', async ({ workspace, runtime }) => { ... })`. A package adds its own fixtures with
 * `test.extend('tool', ({ runtime }) => new MyTool(runtime))`.
 */
export const test = baseTest
  // vitest reads the fixtures a fixture needs from its first parameter, which must be a pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  .extend('workspace', async ({}, { onCleanup }) => {
    const workspace = await createTempWorkspace();
    onCleanup(() => workspace.cleanup());
    return workspace;
  })
  .extend('approval', ({ workspace }) => workspace.approval)
  .extend('runtime', ({ workspace }) => workspace.runtime());

/** The same as {@link test}, for files that say `it`. */
export const it = test;
