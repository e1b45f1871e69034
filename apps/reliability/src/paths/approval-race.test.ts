import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRuntime, type ApprovalRequest, type ToolReturnValue } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { test } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { describe, expect } from 'vitest';
import { snapshotTree } from '../support/tree-snapshot.js';
import { createAttackTree, DENY_GLOBS, type AttackTree } from './attack-tree.js';

// The check-then-write race: the path policy resolved `sub/...` to a real path inside the workspace, then, while
// the approval is pending (the perfect, deterministic hook: a user can take minutes), something swaps a component
// of that path for a symlink to outside the workspace (or into a denied directory). docs/paths.md decides containment on
// real paths and docs/read-state.md repeats its checks "immediately before the bytes are written"; the write must not land
// outside, or in a denied file.
//
// Found by this suite: after approval, applyFileChange only re-checked the read state and that `target.real` "still
// held oldBytes" — both by following the path as it was now — and writeFileAtomic followed symlinks again, so a
// directory (or the file itself) swapped for a symlink between check and write redirected the write outside the
// workspace or into a denied file with the same bytes. Fixed in core (307455c: a change lands only where the path
// policy approved it); these tests keep it fixed.

/** The kit's test, with `tree`: the attack tree, built in the test's workspace. */
const it = test.extend('tree', ({ workspace }) => createAttackTree(workspace));

/** Replaces the directory `work/<name>` with a symlink to `target` (moving the real one aside). */
async function swapDirectoryForLink(tree: AttackTree, name: string, target: string): Promise<void> {
  const dir = path.join(tree.workDir, name);
  await fs.rename(dir, `${dir}.moved`);
  await fs.symlink(target, dir);
}

/** Tools on a runtime whose approval runs `duringApproval` (the attacker's move) and then approves. */
function toolsWithApprovalHook(
  tree: AttackTree,
  duringApproval: (request: ApprovalRequest) => Promise<void>,
) {
  const runtime = createRuntime({
    workDir: tree.workDir,
    fs: tree.fs,
    outside: 'deny',
    deny: DENY_GLOBS,
    approval: {
      async request(request) {
        await duringApproval(request);
        return { kind: 'approve' };
      },
    },
  });
  return { read: new ReadFile(runtime), write: new WriteFile(runtime), edit: new StrReplaceFile(runtime) };
}

/** Runs `act` and returns its result together with whether the outside directory and the denied file kept their bytes. */
async function outsideUntouchedAfter(tree: AttackTree, act: () => Promise<ToolReturnValue>) {
  const outsideBefore = await snapshotTree(tree.outside);
  const deniedBefore = await fs.readFile(path.join(tree.workDir, 'secrets', 'key.txt'), 'utf8');
  const result = await act();
  const outsideAfter = await snapshotTree(tree.outside);
  const deniedAfter = await fs.readFile(path.join(tree.workDir, 'secrets', 'key.txt'), 'utf8');
  return {
    result,
    untouched:
      JSON.stringify([...outsideBefore]) === JSON.stringify([...outsideAfter]) &&
      deniedBefore === deniedAfter,
  };
}

describe('a directory swapped for a symlink while the approval is pending', () => {
  it('control: without a swap the write lands in the workspace (the hook itself is sound)', async ({
    tree,
  }) => {
    const tools = toolsWithApprovalHook(tree, async () => undefined);
    await tools.read.call({ path: 'sub/file.txt' });
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.edit.call({ path: 'sub/file.txt', edit: { old: 'race target', new: 'edited' } }),
    );
    expect(result.isError).toBe(false);
    expect(untouched).toBe(true);
    expect(await fs.readFile(path.join(tree.workDir, 'sub', 'file.txt'), 'utf8')).toBe('edited\n');
  });

  it('WriteFile creating sub/new.txt does not create it outside', async ({ tree }) => {
    const tools = toolsWithApprovalHook(tree, () => swapDirectoryForLink(tree, 'sub', '../outside'));
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.write.call({ path: 'sub/new.txt', content: 'x' }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });

  it('WriteFile overwriting sub/file.txt does not overwrite the outside file with the same bytes', async ({
    tree,
  }) => {
    const tools = toolsWithApprovalHook(tree, () => swapDirectoryForLink(tree, 'sub', '../outside'));
    await tools.read.call({ path: 'sub/file.txt' });
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.write.call({ path: 'sub/file.txt', content: 'overwritten\n' }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });

  it('WriteFile appending to sub/file.txt does not append to the outside file', async ({ tree }) => {
    const tools = toolsWithApprovalHook(tree, () => swapDirectoryForLink(tree, 'sub', '../outside'));
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.write.call({ path: 'sub/file.txt', content: 'more\n', mode: 'append' }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });

  it('StrReplaceFile on sub/file.txt does not edit the outside file', async ({ tree }) => {
    const tools = toolsWithApprovalHook(tree, () => swapDirectoryForLink(tree, 'sub', '../outside'));
    await tools.read.call({ path: 'sub/file.txt' });
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.edit.call({ path: 'sub/file.txt', edit: { old: 'race target', new: 'edited' } }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });

  it('StrReplaceFile does not follow the file itself swapped for a symlink to outside', async ({ tree }) => {
    const file = path.join(tree.workDir, 'sub', 'file.txt');
    const tools = toolsWithApprovalHook(tree, async () => {
      await fs.rm(file);
      await fs.symlink(path.join(tree.outside, 'file.txt'), file);
    });
    await tools.read.call({ path: 'sub/file.txt' });
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.edit.call({ path: 'sub/file.txt', edit: { old: 'race target', new: 'edited' } }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });

  it('StrReplaceFile does not write into a denied directory swapped in', async ({ tree }) => {
    // A copy of the denied file's bytes in an allowed place; the swap points `sub` at the denied `secrets/`.
    const denied = await fs.readFile(path.join(tree.workDir, 'secrets', 'key.txt'));
    await fs.writeFile(path.join(tree.workDir, 'sub', 'key.txt'), denied);
    const tools = toolsWithApprovalHook(tree, () => swapDirectoryForLink(tree, 'sub', 'secrets'));
    await tools.read.call({ path: 'sub/key.txt' });
    const { result, untouched } = await outsideUntouchedAfter(tree, () =>
      tools.edit.call({ path: 'sub/key.txt', edit: { old: 'DENIED', new: 'PWNED' } }),
    );
    expect(untouched).toBe(true);
    expect(result.isError).toBe(true);
  });
});
