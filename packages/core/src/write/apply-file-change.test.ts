import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  it,
  mapSharedForWriting,
  markRead,
  recordingApproval,
  rewriteKeepingMtime,
  statsLostAfterRename,
  translatedRuntime,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { SessionApproval, yoloApproval, type Approval } from '../approval/approval.js';
import { FileActions } from '../approval/file-actions.js';
import type { ResolvedPath } from '../path/path-policy.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { hashBytes } from '../state/content-hash.js';
import { FileHistory } from '../state/file-history.js';
import { readStampedFile } from '../state/read-stamped.js';
import { applyFileChange, type FileChange } from './apply-file-change.js';
import { localFileSystem } from '../fs/local-file-system.js';

const bytes = (text: string) => new TextEncoder().encode(text);

async function resolved(runtime: ToolRuntime, input: string): Promise<ResolvedPath> {
  const result = await runtime.paths.resolveFile(input, 'write');
  if (!result.ok) throw new Error(result.error.message);
  return result.path;
}

async function change(
  runtime: ToolRuntime,
  input: string,
  newText: string,
  extra: Partial<FileChange> = {},
): Promise<FileChange> {
  const target = await resolved(runtime, input);
  let oldBytes: Uint8Array | null = null;
  try {
    oldBytes = await fs.readFile(target.real);
  } catch {
    // a new file
  }
  return {
    sender: 'WriteFile',
    verb: 'Write',
    path: target,
    oldBytes,
    newBytes: bytes(newText),
    oldText: oldBytes ? new TextDecoder().decode(oldBytes) : '',
    newText,
    checkReadState: false,
    ...extra,
  };
}

/** The change a write tool computes from its own stamped read of `a.txt`, judged against the read state. */
async function changeFromStampedRead(
  runtime: ToolRuntime,
  file: string,
  newText: string,
): Promise<FileChange> {
  const read = await readStampedFile(localFileSystem, file);
  if (typeof read === 'string') throw new Error(read);
  return change(runtime, 'a.txt', newText, { checkReadState: true, oldStamp: read.stamp });
}

describe('applyFileChange', () => {
  it('asks EDIT with the description and diff, writes, records state and history', async ({ workspace }) => {
    const approval = recordingApproval();
    const history = new FileHistory();
    const runtime = workspace.runtime({ approval, history });
    const file = workspace.at('a.txt');
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'hello\n'));
    expect(outcome).toEqual({
      kind: 'written',
      action: FileActions.EDIT,
      created: true,
      bytes: 6,
      createdDirectories: [],
      newBytes: bytes('hello\n'),
      newHash: hashBytes(bytes('hello\n')),
      note: '',
      display: [
        {
          type: 'diff',
          path: file,
          oldText: '',
          newText: 'hello',
          oldStart: 1,
          newStart: 1,
          isSummary: false,
        },
      ],
    });
    expect(approval.requests).toEqual([
      {
        sender: 'WriteFile',
        action: FileActions.EDIT,
        description: `Write file \`${file}\``,
        display: outcome.kind === 'written' ? outcome.display : [],
        path: file,
        hunks: [
          { id: 'h1', path: file, oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+hello'] },
        ],
        editable: [expect.objectContaining({ path: file })],
      },
    ]);
    expect(approval.requests[0]!.editable![0]!.proposedText()).toBe('hello\n');
    expect(await fs.readFile(file, 'utf8')).toBe('hello\n');
    expect(await runtime.fileState.check(file)).toBe('ok');
    expect(history.list().map((entry) => [entry.path, entry.size])).toEqual([[file, null]]);
  });

  it('is written when a stat fails past the rename (a dropped connection), and forgets the read state', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ fs: statsLostAfterRename(workspace.fs) });
    const file = await workspace.write('a.txt', 'old\n', { readBy: runtime });
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'new\n'));
    expect(outcome).toMatchObject({ kind: 'written', bytes: 4 });
    expect(outcome).not.toHaveProperty('newHash');
    expect(await fs.readFile(file, 'utf8')).toBe('new\n');
    expect(runtime.fileState.get(file)).toBeUndefined();
  });

  it('asks nothing and writes nothing for a byte-identical change', async ({ workspace }) => {
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval });
    await workspace.write('same.txt', 'same');
    const before = await fs.stat(workspace.at('same.txt'));
    expect(await applyFileChange(runtime, await change(runtime, 'same.txt', 'same'))).toEqual({
      kind: 'unchanged',
    });
    expect(approval.requests).toEqual([]);
    expect((await fs.stat(workspace.at('same.txt'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('asks EDIT_OUTSIDE outside the workspace and says Edit for edits', async ({ workspace }) => {
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval });
    const outside = path.join(workspace.root, 'outside.txt');
    await applyFileChange(
      runtime,
      await change(runtime, outside, 'x', { verb: 'Edit', sender: 'StrReplaceFile' }),
    );
    expect(approval.requests.map((r) => [r.sender, r.action, r.description])).toEqual([
      ['StrReplaceFile', FileActions.EDIT_OUTSIDE, `Edit file \`${outside}\``],
    ]);
    expect(await fs.readFile(outside, 'utf8')).toBe('x');
  });

  it('returns the rejection and leaves the file alone', async ({ workspace }) => {
    const approval = recordingApproval(async () => ({ kind: 'reject', feedback: 'use tabs' }));
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write('a.txt', 'old');
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'new'));
    expect(outcome).toEqual({
      kind: 'refused',
      result: {
        isError: true,
        output: '',
        message: 'The tool call is rejected by the user. User feedback: use tabs',
        brief: 'Rejected: use tabs',
        display: [{ type: 'brief', text: 'Rejected: use tabs' }],
      },
    });
    expect(await fs.readFile(file, 'utf8')).toBe('old');
  });

  it('treats approve-for-session as approval and stops asking', async ({ workspace }) => {
    const asked: string[] = [];
    const runtime = workspace.runtime({
      approval: new SessionApproval(async (request) => {
        asked.push(request.description);
        return { kind: 'approve_for_session' };
      }),
    });
    await applyFileChange(runtime, await change(runtime, 'a.txt', 'one'));
    await applyFileChange(runtime, await change(runtime, 'b.txt', 'two'));
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('one');
    expect(await fs.readFile(workspace.at('b.txt'), 'utf8')).toBe('two');
    expect(asked).toEqual([`Write file \`${workspace.at('a.txt')}\``]);
  });

  it('checks read state before asking when it applies', async ({ workspace }) => {
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval });
    await workspace.write('a.txt', 'old');
    const outcome = await applyFileChange(
      runtime,
      await change(runtime, 'a.txt', 'new', { checkReadState: true }),
    );
    expect(outcome.kind === 'refused' && outcome.result.message).toBe(
      '`a.txt` has not been read yet. Read it first before writing to it.',
    );
    expect(approval.requests).toEqual([]);
    await markRead(runtime, workspace.at('a.txt'));
    expect(
      (await applyFileChange(runtime, await change(runtime, 'a.txt', 'new', { checkReadState: true }))).kind,
    ).toBe('written');
    // The write recorded the new state: a second edit needs no re-read.
    expect(
      (await applyFileChange(runtime, await change(runtime, 'a.txt', 'newer', { checkReadState: true })))
        .kind,
    ).toBe('written');
  });

  it('writes nothing when the file changes while the approval is pending', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'old');
    const approval = recordingApproval(async () => {
      await fs.writeFile(file, 'the user typed this');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'new'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('the user typed this');
  });

  it('judges the read state under the file lock, on the bytes it is about to replace', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    // The editor's change keeps the size and the mtime, and the change was computed from what it left behind:
    // only the read state, checked on that very content, can still tell that the session never saw it.
    const approval = recordingApproval(async () => {
      await rewriteKeepingMtime(file, 'value=2\n');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    await markRead(runtime, file);
    const computed = await change(runtime, 'a.txt', 'value=3\n', {
      checkReadState: true,
      oldBytes: bytes('value=2\n'),
      oldText: 'value=2\n',
    });
    const outcome = await applyFileChange(runtime, computed);
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('value=2\n');
  });

  it('judges the read state before the approval on the stamp of the bytes read, when the tool gives one', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval });
    await markRead(runtime, file);
    // The tool read the file after a same-size rewrite that kept the mtime: its stamp carries the new hash.
    await rewriteKeepingMtime(file, 'value=2\n');
    const outcome = await applyFileChange(runtime, await changeFromStampedRead(runtime, file, 'value=3\n'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(approval.requests).toEqual([]);
    expect(await fs.readFile(file, 'utf8')).toBe('value=2\n');
  });

  it('still refuses, under the lock, a same-size rewrite made after the stamped read', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const approval = recordingApproval(async () => {
      await rewriteKeepingMtime(file, 'value=2\n');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    await markRead(runtime, file);
    const outcome = await applyFileChange(runtime, await changeFromStampedRead(runtime, file, 'value=3\n'));
    expect(approval.requests).toHaveLength(1);
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('value=2\n');
  });

  it('refuses, under the lock, a change made through a shared memory mapping while the approval was pending', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const mapping = await mapSharedForWriting(file);
    try {
      // Only the first write to a clean page of a mapping moves the file's times: the one during the approval does
      // not, and only the bytes show it (docs/read-state.md).
      await mapping.write(6, '1');
      const approval = recordingApproval(async () => {
        await mapping.write(6, '2');
        return { kind: 'approve' };
      });
      const runtime = workspace.runtime({ approval });
      // The read well after the file's last change: its stats, unchanged since, cannot vouch for the bytes.
      await sleep(40);
      await markRead(runtime, file);
      const outcome = await applyFileChange(runtime, await changeFromStampedRead(runtime, file, 'value=3\n'));
      expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
      expect(await fs.readFile(file, 'utf8')).toBe('value=2\n');
    } finally {
      await mapping.close();
    }
  });

  it('writes nothing when a new file appears while the approval is pending', async ({ workspace }) => {
    const file = workspace.at('a.txt');
    const approval = recordingApproval(async () => {
      await fs.writeFile(file, 'someone else');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'mine'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('someone else');
  });

  it('creates the listed directories after approval only', async ({ workspace }) => {
    const reject = recordingApproval(async () => ({ kind: 'reject' }));
    const dirs = [workspace.at('a'), path.join(workspace.workDir, 'a', 'b')];
    const rejecting = workspace.runtime({ approval: reject });
    await applyFileChange(rejecting, await change(rejecting, 'a/b/c.txt', 'x', { createDirectories: dirs }));
    await expect(fs.stat(dirs[0] as string)).rejects.toMatchObject({ code: 'ENOENT' });

    const runtime = workspace.runtime({ approval: yoloApproval() });
    const outcome = await applyFileChange(
      runtime,
      await change(runtime, 'a/b/c.txt', 'x', { createDirectories: dirs }),
    );
    expect(outcome.kind === 'written' && outcome.createdDirectories).toEqual(dirs);
    expect(await fs.readFile(path.join(workspace.workDir, 'a', 'b', 'c.txt'), 'utf8')).toBe('x');
  });

  it('serialises concurrent changes computed from the same bytes: one wins, the other is refused', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ approval: yoloApproval() });
    const file = await workspace.write('a.txt', 'base');
    const first = await change(runtime, 'a.txt', 'first');
    const second = await change(runtime, 'a.txt', 'second');
    const outcomes = await Promise.all([applyFileChange(runtime, first), applyFileChange(runtime, second)]);
    // Whichever takes the lock first wins (under load, the second call may).
    const kinds = outcomes.map((outcome) => outcome.kind);
    expect([...kinds].sort()).toEqual(['refused', 'written']);
    expect(await fs.readFile(file, 'utf8')).toBe(kinds[0] === 'written' ? 'first' : 'second');
  });
  it('serialises concurrent changes to one file through two of its hard links: the second is refused, none lost', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ approval: yoloApproval() });
    const file = await workspace.write('a.txt', 'one\ntwo\n');
    await workspace.link('b.txt', file);
    // Each name has a lock file of its own, and a hard-linked file is rewritten in place, not renamed over.
    const first = await change(runtime, 'a.txt', 'ONE\ntwo\n');
    const second = await change(runtime, 'b.txt', 'one\nTWO\n');
    const outcomes = await Promise.all([applyFileChange(runtime, first), applyFileChange(runtime, second)]);
    const kinds = outcomes.map((outcome) => outcome.kind);
    expect([...kinds].sort()).toEqual(['refused', 'written']);
    expect(await fs.readFile(workspace.at('b.txt'), 'utf8')).toBe(
      kinds[0] === 'written' ? 'ONE\ntwo\n' : 'one\nTWO\n',
    );
    expect((await fs.stat(file)).nlink).toBe(2);
  });
  it('keeps two runtimes (two agents) from both writing changes computed from the same bytes', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'base');
    // Both approvals are answered only once both were asked, so both changes reach the write together.
    let release: () => void = () => undefined;
    const bothAsked = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const gated: Approval = {
      request: async () => {
        asked += 1;
        if (asked === 2) release();
        await bothAsked;
        return { kind: 'approve' };
      },
    };
    const agents = [workspace.runtime({ approval: gated }), workspace.runtime({ approval: gated })];
    const changes = await Promise.all(
      agents.map((runtime, index) => change(runtime, 'a.txt', `agent ${index}`)),
    );
    const outcomes = await Promise.all(
      agents.map((runtime, index) => applyFileChange(runtime, changes[index]!)),
    );
    const kinds = outcomes.map((outcome) => outcome.kind).sort();
    expect(kinds).toEqual(['refused', 'written']);
    const winner = outcomes.findIndex((outcome) => outcome.kind === 'written');
    expect(await fs.readFile(file, 'utf8')).toBe(`agent ${winner}`);
    expect(await fs.readdir(workspace.workDir)).toEqual(['a.txt']);
  });
  it('reads its lock file twice: right before the rename, to know it still holds it, and to release it', async ({
    workspace,
  }) => {
    // Each read of the lock file is an open, a stat and a read: round trips on a remote host.
    const { runtime, files, at } = translatedRuntime(workspace, { approval: yoloApproval() });
    await workspace.write('a.txt', 'old');
    const outcome = await applyFileChange(runtime, {
      sender: 'WriteFile',
      verb: 'Write',
      path: await resolved(runtime, 'a.txt'),
      oldBytes: bytes('old'),
      newBytes: bytes('new'),
      oldText: 'old',
      newText: 'new',
      checkReadState: false,
    });
    expect(outcome.kind).toBe('written');
    expect(await fs.readFile(workspace.at('a.txt'), 'utf8')).toBe('new');
    const lockReads = files.operations.filter((operation) => operation === `open ${at('.a.txt.kimi-lock')}`);
    expect(lockReads).toHaveLength(2);
  });
  it('refuses when a directory on the path is swapped for a symlink to outside while the approval is pending', async ({
    workspace,
  }) => {
    const outside = workspace.outsideDir;
    await workspace.mkdir('sub');
    const swap: Approval = {
      request: async () => {
        await fs.rename(workspace.at('sub'), workspace.at('sub.moved'));
        await workspace.symlink('sub', outside);
        return { kind: 'approve' };
      },
    };
    const runtime = workspace.runtime({ approval: swap });
    const outcome = await applyFileChange(runtime, await change(runtime, 'sub/new.txt', 'x'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readdir(outside)).toEqual([]);
  });
  it('shows the creation of an empty file as one empty block, in the approval and the outcome', async ({
    workspace,
  }) => {
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval });
    const outcome = await applyFileChange(runtime, await change(runtime, 'empty.txt', ''));
    const block = {
      type: 'diff',
      path: workspace.at('empty.txt'),
      oldText: '',
      newText: '',
      oldStart: 1,
      newStart: 1,
      isSummary: false,
    };
    expect(approval.requests.map((request) => request.display)).toEqual([[block]]);
    expect(outcome.kind === 'written' && outcome.display).toEqual([block]);
    expect(await fs.readFile(workspace.at('empty.txt'), 'utf8')).toBe('');
  });
});
