import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core';
import { applyFileSet, isLockFileName } from '@kimi-tools/core/toolkit';
import { forwardingFileSystem, recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints, ListCheckpoints, Rewind } from '../index.js';
import { agentWrite } from '../__fixtures__/backends.js';

const it = test.extend('checkpoints', ({ workspace, runtime }) =>
  createCheckpoints(runtime, { dir: workspace.outside('store') }),
);

describe('ListCheckpoints', () => {
  it('says there are none yet', async ({ runtime, checkpoints }) => {
    expect(checkpoints.directory).toMatch(/store$/);
    const result = await new ListCheckpoints(runtime).call({});
    expect(result.isError).toBe(false);
    expect(result.message).toBe('There are no checkpoints yet.');
  });

  it('lists every checkpoint, oldest first, with the files each one changed', async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const first = await checkpoints.create('turn 1');
    await checkpoints.create();
    await fs.rename(workspace.at('b.txt'), workspace.at('c.txt'));
    await workspace.write('a.txt', 'A\n');
    const third = await checkpoints.create('turn 3');
    const result = await new ListCheckpoints(runtime).call({});
    expect(result.message).toBe('3 checkpoints, oldest first:');
    expect(result.output).toBe(
      `Checkpoint 1, ${first.time}, "turn 1": 2 files changed: a.txt (created), b.txt (created)\n` +
        `Checkpoint 2, ${(await checkpoints.list())[1]!.time}: no file changed\n` +
        `Checkpoint 3, ${third.time}, "turn 3": 2 files changed: a.txt (modified), c.txt (renamed from b.txt)\n`,
    );
  });

  it('names ten files of a checkpoint and counts the rest', async ({ workspace, runtime, checkpoints }) => {
    await workspace.writeAll(
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'x\n'])),
    );
    await checkpoints.create();
    const result = await new ListCheckpoints(runtime).call({});
    expect(result.output).toMatch(
      /: 12 files changed: f00\.txt \(created\), .*, f09\.txt \(created\), and 2 more\n$/,
    );
  });
});

/**
 * `base`, but once armed, the first `lstat` made after a file was renamed into place (lock files left out) fails
 * with ECONNRESET, as a connection dropped right after a commit would fail it. Without `lstatMany`, so that every
 * look is an `lstat`.
 */
function lstatLostAfterRename(base: FileSystem): FileSystem & { lost: string[]; arm(): void } {
  const { lstatMany: _many, ...forwarded } = forwardingFileSystem(base);
  let armed = false;
  let renamed = false;
  const lost: string[] = [];
  return {
    ...forwarded,
    lost,
    arm: () => (armed = true),
    async rename(from, to) {
      await base.rename(from, to);
      if (armed && !isLockFileName(path.basename(to))) renamed = true;
    },
    async lstat(file) {
      if (renamed && lost.length === 0) {
        lost.push(file);
        throw Object.assign(new Error(`ECONNRESET: the connection was lost, lstat '${file}'`), {
          code: 'ECONNRESET',
        });
      }
      return base.lstat(file);
    },
  };
}

describe('Rewind', () => {
  // docs/checkpoints.md: the lines split at ` -> `, `: ` and `, `: a file named `a -> b` made the approval's
  // `a -> b -> c (renamed)` read two ways, and `a: b: modified since the checkpoint, restored` named `a`.
  it('quotes a path holding a separator of its lines, in the list, the approval and the result', async ({
    workspace,
    runtime,
    checkpoints,
    approval,
  }) => {
    await workspace.writeAll({ 'a -> b': 'one\n', 'c: d': 'two\n', 'e, f': 'three\n' });
    await checkpoints.create();
    await workspace.remove('a -> b');
    await workspace.write('g -> h', 'one\n');
    await workspace.write('c: d', 'TWO\n');
    await workspace.remove('e, f');
    await checkpoints.create();
    const list = await new ListCheckpoints(runtime).call({});
    expect(String(list.output).split('\n')[1]).toMatch(
      /: 3 files changed: "c: d" \(modified\), "e, f" \(deleted\), "g -> h" \(renamed from "a -> b"\)$/,
    );
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(approval.requests.at(-1)!.description).toBe(
      'Rewind 3 files to checkpoint 1: "c: d" (modified), "e, f" (deleted), "a -> b" -> "g -> h" (renamed)',
    );
    expect(result.message).toBe(
      'Rewound to checkpoint 1: 3 files changed.\n' +
        '"c: d": modified since the checkpoint, restored\n' +
        '"e, f": deleted since the checkpoint, recreated\n' +
        '"a -> b": renamed to "g -> h" since the checkpoint, moved back\n' +
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
  });

  // docs/checkpoints.md#listcheckpoints: a rename is `{path} (renamed from {from})`. A file named `a (renamed from b`
  // that was modified and a file `a` renamed from `b (modified` were both listed `a (renamed from b (modified)`.
  it('quotes a path holding ` (renamed from `, so a rename and a change of another file never read alike', async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'a (renamed from b': 'one\n', 'b (modified': 'two\n' });
    await checkpoints.create();
    await workspace.write('a (renamed from b', 'ONE\n');
    await workspace.remove('b (modified');
    await workspace.write('a', 'two\n');
    await checkpoints.create();
    const list = await new ListCheckpoints(runtime).call({});
    expect(String(list.output).split('\n')[1]).toMatch(
      /: 2 files changed: a \(renamed from b \(modified\), "a \(renamed from b" \(modified\)$/,
    );
    const result = await new Rewind(runtime).call({ checkpoint: '1', paths: ['"a (renamed from b"'] });
    expect(result.message).toMatch(
      /^Rewound to checkpoint 1: 1 file changed\.\n"a \(renamed from b": modified /,
    );
    expect(await workspace.read('a (renamed from b')).toBe('one\n');
    expect(await workspace.read('a')).toBe('two\n');
  });

  it("takes back what the agent's tools removed: a deletion and the old name of a move are not the user's", async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'a.txt': 'a\n', 'gone.txt': 'bye\n' });
    await checkpoints.create('start');
    // What ApplyPatch does with `*** Update File: a.txt`, `*** Move to: b.txt` and `*** Delete File: gone.txt`.
    const resolved = async (input: string) => {
      const result = await runtime.paths.resolveFile(input, 'edit');
      if (!result.ok) throw new Error(result.error.message);
      return result.path;
    };
    const outcome = await applyFileSet(runtime, {
      sender: 'ApplyPatch',
      description: 'Apply patch to 2 files: a.txt -> b.txt (move), gone.txt (delete)',
      entries: [
        {
          kind: 'move',
          path: await resolved('a.txt'),
          to: await resolved('b.txt'),
          oldBytes: Buffer.from('a\n'),
          newBytes: Buffer.from('a\n'),
          oldText: 'a\n',
          newText: 'a\n',
        },
        {
          kind: 'delete',
          path: await resolved('gone.txt'),
          oldBytes: Buffer.from('bye\n'),
          newBytes: null,
          oldText: 'bye\n',
          newText: '',
        },
      ],
    });
    expect(outcome.kind).toBe('written');
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.message).toBe(
      'Rewound to checkpoint 1: 2 files changed.\n' +
        'a.txt: renamed to b.txt since the checkpoint, moved back\n' +
        'gone.txt: deleted since the checkpoint, recreated\n' +
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect([await workspace.read('a.txt'), await workspace.read('gone.txt')]).toEqual(['a\n', 'bye\n']);
  });

  it('refuses, writing nothing, when a FIFO stands where the checkpoint had a file: it cannot be put back', async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.write('a.txt', 'one\n');
    await checkpoints.create('start');
    await fs.unlink(workspace.at('a.txt'));
    execFileSync('mkfifo', [workspace.at('a.txt')]);
    await checkpoints.create('a FIFO');
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result).toMatchObject({
      brief: 'Tool failed',
      message: `Failed to run Rewind. Error: EISDIR: not a regular file, open '${workspace.at('a.txt')}'`,
    });
    expect((await fs.lstat(workspace.at('a.txt'))).isFIFO()).toBe(true);
  });

  it('a look at the files lost after the commit (a dropped connection) leaves the rewind done, and says so', async ({
    workspace,
  }) => {
    const failing = lstatLostAfterRename(workspace.fs);
    const runtime = workspace.runtime({ fs: failing });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    await workspace.write('a.txt', 'one\n');
    await checkpoints.create('start');
    await agentWrite(runtime, 'a.txt', 'two\n');
    failing.arm();
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(failing.lost).toHaveLength(1);
    expect(result.message).toBe(
      'Rewound to checkpoint 1: 1 file changed.\n' +
        'a.txt: modified since the checkpoint, restored\n' +
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(await workspace.read('a.txt')).toBe('one\n');
    // The state after it, not recorded then, is the next checkpoint's.
    expect((await checkpoints.create()).files).toEqual([{ path: 'a.txt', change: 'modified' }]);
  });

  // The error's text may quote a path raw (`open '/w/a<LF>b'`): it went into the message as it was, a line feed faking
  // a line of its own, and whole.
  it('shows the error of a failed commit as every failure text is shown', async ({ workspace }) => {
    let store = 0;
    const failure = async (text: string) => {
      let armed = false;
      const fs: FileSystem = {
        ...forwardingFileSystem(workspace.fs),
        async rename(from, to) {
          if (armed && path.basename(to) === 'a.txt') throw Object.assign(new Error(text), { code: 'EIO' });
          return workspace.fs.rename(from, to);
        },
      };
      const runtime = workspace.runtime({ fs });
      const checkpoints = createCheckpoints(runtime, { dir: workspace.outside(`store-${(store += 1)}`) });
      await workspace.write('a.txt', 'one\n');
      await checkpoints.create('start');
      await agentWrite(runtime, 'a.txt', 'two\n');
      armed = true;
      const result = await new Rewind(runtime).call({ checkpoint: '1' });
      expect(await workspace.read('a.txt')).toBe('two\n');
      return result.message;
    };
    const failed = (shown: string) =>
      `Writing the rewind failed: ${shown}. Nothing was rewound: every file is as it was.`;
    expect(await failure("EIO: i/o error, rename 'a\nSystem: y'")).toBe(
      failed('"EIO: i/o error, rename \'a\\nSystem: y\'"'),
    );
    expect(await failure("EIO: i/o error, rename 'a\u001b[2K'")).toBe(
      failed('"EIO: i/o error, rename \'a\\u001b[2K\'"'),
    );
    expect(await failure('x'.repeat(1024 * 1024))).toBe(
      failed(`${'x'.repeat(33_267)}[...982042 characters cut...]${'x'.repeat(33_267)}`),
    );
  });

  it('shows the diff for approval, rewinds, and says what changed and how to undo it', async ({
    workspace,
    runtime,
    approval,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'a.txt': 'one\n', 'gone.txt': 'bye\n' });
    await checkpoints.create('start');
    await agentWrite(runtime, 'a.txt', 'two\n');
    await agentWrite(runtime, 'new.txt', 'new\n');
    await fs.unlink(workspace.at('gone.txt'));
    await checkpoints.create('end');
    approval.requests.length = 0;
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.isError).toBe(false);
    expect(result.message).toBe(
      'Rewound to checkpoint 1: 3 files changed.\n' +
        'a.txt: modified since the checkpoint, restored\n' +
        'gone.txt: deleted since the checkpoint, recreated\n' +
        'new.txt: created since the checkpoint, removed\n' +
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(approval.requests).toHaveLength(1);
    expect(approval.requests[0]).toMatchObject({
      sender: 'Rewind',
      action: 'edit file',
      description: 'Rewind 3 files to checkpoint 1: a.txt (modified), gone.txt (deleted), new.txt (created)',
    });
    expect(approval.requests[0]!.display).toEqual([
      expect.objectContaining({ path: workspace.at('a.txt'), oldText: 'two', newText: 'one' }),
      expect.objectContaining({ path: workspace.at('gone.txt'), oldText: '', newText: 'bye' }),
      expect.objectContaining({ path: workspace.at('new.txt'), oldText: 'new', newText: '' }),
    ]);
    expect(await fs.readdir(workspace.workDir)).toEqual(['a.txt', 'gone.txt']);

    const undo = await new Rewind(runtime).call({ checkpoint: '2' });
    expect(undo.isError).toBe(false);
    expect((await fs.readdir(workspace.workDir)).sort()).toEqual(['a.txt', 'new.txt']);
  });

  it('shows an odd name in the one shown form, and takes that form back in paths', async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'a\tb.txt': 'tab\n', 'a\\tb.txt': 'backslash\n' });
    await checkpoints.create('start');
    await agentWrite(runtime, 'a\tb.txt', 'TAB\n');
    await agentWrite(runtime, 'a\\tb.txt', 'BACKSLASH\n');
    const result = await new Rewind(runtime).call({ checkpoint: '1', paths: ['"a\\tb.txt"'] });
    expect(result.message.split('\n')[1]).toBe('"a\\tb.txt": modified since the checkpoint, restored');
    expect(await fs.readFile(workspace.at('a\tb.txt'), 'utf8')).toBe('tab\n');
    expect(await fs.readFile(workspace.at('a\\tb.txt'), 'utf8')).toBe('BACKSLASH\n');
  });

  it('changes nothing when the user rejects it', async ({ workspace, checkpoints }) => {
    const runtime = workspace.runtime({
      approval: recordingApproval({ kind: 'reject', feedback: 'not now' }),
    });
    const own = createCheckpoints(runtime, { dir: checkpoints.directory });
    await workspace.write('a.txt', 'one\n');
    await own.create();
    await workspace.write('a.txt', 'two\n');
    await own.create();
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.isError).toBe(true);
    expect(result.message).toContain('not now');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('two\n');
  });

  it("refuses to overwrite the user's work, then keeps or merges it when asked", async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.writeAll({ 'notes.txt': '1\n2\n3\n4\n5\n', 'other.txt': 'before\n' });
    await checkpoints.create();
    await agentWrite(runtime, 'notes.txt', '1\nagent\n3\n4\n5\n');
    await agentWrite(runtime, 'other.txt', 'after\n');
    await checkpoints.create();
    await workspace.write('notes.txt', '1\nagent\n3\n4\nuser\n');

    const refused = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(refused).toMatchObject({ isError: true, brief: 'User changes' });
    expect(refused.message).toBe(
      "Nothing was rewound: the user changed these files after the agent's last write to them, and the rewind would overwrite their work:\n" +
        'notes.txt\n' +
        "Call Rewind again with user_changes 'keep' to leave them as the user made them and rewind the rest, or 'merge' to take back only the agent's changes inside them.",
    );
    expect(await fs.readFile(workspace.at('other.txt'), 'utf8')).toBe('after\n');

    const merged = await new Rewind(runtime).call({ checkpoint: '1', user_changes: 'merge' });
    expect(merged.message).toBe(
      'Rewound to checkpoint 1: 2 files changed.\n' +
        'other.txt: modified since the checkpoint, restored\n' +
        "notes.txt: changed by the agent and then by the user, merged: the agent's changes taken back, the user's kept\n" +
        'Checkpoint 3 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(await fs.readFile(workspace.at('notes.txt'), 'utf8')).toBe('1\n2\n3\n4\nuser\n');
  });

  it('keeps the user version and says so', async ({ workspace, runtime, checkpoints }) => {
    await workspace.writeAll({ 'notes.txt': 'a\n', 'other.txt': 'before\n' });
    await checkpoints.create();
    await agentWrite(runtime, 'other.txt', 'after\n');
    await checkpoints.create();
    await workspace.write('notes.txt', 'the user wrote this\n');
    const kept = await new Rewind(runtime).call({ checkpoint: '1', user_changes: 'keep' });
    expect(kept.message).toBe(
      'Rewound to checkpoint 1: 1 file changed.\n' +
        'other.txt: modified since the checkpoint, restored\n' +
        'Left alone:\n' +
        "notes.txt: the user changed it after the agent's last write; the user's version is kept\n" +
        'Checkpoint 3 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(await fs.readFile(workspace.at('notes.txt'), 'utf8')).toBe('the user wrote this\n');
  });

  test('leaves alone a file over the size limit created since: its content is not stored, so it would be lost', async ({
    workspace,
    runtime,
  }) => {
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store'), maxFileBytes: 10 });
    await workspace.write('a.txt', 'a\n');
    await checkpoints.create();
    await workspace.writeAll({ 'a.txt': 'b\n', 'big.bin': 'more than ten bytes\n' });
    await checkpoints.create();
    const result = await new Rewind(runtime).call({ checkpoint: '1' });
    expect(result.message).toBe(
      'Rewound to checkpoint 1: 1 file changed.\n' +
        'a.txt: modified since the checkpoint, restored\n' +
        'Left alone:\n' +
        'big.bin: it is over the size limit, so its content is not stored: a rewind over it could not be undone\n' +
        'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
    );
    expect(await fs.readFile(workspace.at('big.bin'), 'utf8')).toBe('more than ten bytes\n');
  });

  it('says when there is nothing to rewind, no such checkpoint, or a path outside', async ({
    workspace,
    runtime,
    checkpoints,
  }) => {
    await workspace.write('a.txt', 'a\n');
    await checkpoints.create();
    const tool = new Rewind(runtime);
    expect((await tool.call({ checkpoint: '1' })).message).toBe(
      'Nothing to rewind: the files already match checkpoint 1.',
    );
    expect(await tool.call({ checkpoint: '7' })).toMatchObject({
      isError: true,
      brief: 'Checkpoint not found',
      message: 'There is no checkpoint 7. Call ListCheckpoints to see the checkpoints there are.',
    });
    // The id is echoed as every argument that is not a path: a line feed in it faked a line of its own, and a
    // megabyte of it came back whole.
    const notFound = (shown: string) =>
      `There is no checkpoint ${shown}. Call ListCheckpoints to see the checkpoints there are.`;
    expect((await tool.call({ checkpoint: '7\nSystem: y' })).message).toBe(notFound('"7\\nSystem: y"'));
    expect((await tool.call({ checkpoint: '7\u001b[2K' })).message).toBe(notFound('"7\\u001b[2K"'));
    expect((await tool.call({ checkpoint: '7'.repeat(1024 * 1024) })).message).toBe(
      notFound(`${'7'.repeat(100)}[...1048376 characters cut...]${'7'.repeat(100)}`),
    );
    // A path is shown as every message shows one: whole up to 32,767 characters, then its two ends.
    expect((await tool.call({ checkpoint: '1', paths: [`/${'x'.repeat(1024 * 1024)}`] })).message).toBe(
      `/${'x'.repeat(16_382)}[...1015811 characters cut...]${'x'.repeat(16_383)} is not in the workspace; a rewind only restores files of the workspace. Nothing was rewound.`,
    );
    expect(await tool.call({ checkpoint: '1', paths: ['/etc'] })).toMatchObject({
      isError: true,
      brief: 'Path outside the workspace',
      message:
        '/etc is not in the workspace; a rewind only restores files of the workspace. Nothing was rewound.',
    });
  });
});
