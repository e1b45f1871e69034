import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SessionApproval,
  yoloApproval,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
} from '../approval/approval.js';
import { FileActions } from '../approval/file-actions.js';
import type { ResolvedPath } from '../path/path-policy.js';
import { createRuntime, type RuntimeOptions, type ToolRuntime } from '../runtime/runtime.js';
import { snapshotOf } from '../state/file-snapshot.js';
import { FileHistory } from '../state/file-history.js';
import { applyFileChange, type FileChange } from './apply-file-change.js';

let root: string;
let workDir: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-apply-')));
  workDir = path.join(root, 'work');
  await fs.mkdir(workDir);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

/** Records every request and answers with `answer` (approve by default). */
function recordingApproval(
  answer: (request: ApprovalRequest) => Promise<ApprovalResponse> = async () => ({ kind: 'approve' }),
) {
  const requests: ApprovalRequest[] = [];
  const approval: Approval = {
    request: async (request) => {
      requests.push(request);
      return answer(request);
    },
  };
  return { approval, requests };
}

function runtimeWith(approval: Approval, options: Partial<RuntimeOptions> = {}): ToolRuntime {
  return createRuntime({ workDir, approval, ...options });
}

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

async function markRead(runtime: ToolRuntime, file: string): Promise<void> {
  runtime.fileState.recordRead(file, snapshotOf(await fs.readFile(file), await fs.stat(file)), true);
}

describe('applyFileChange', () => {
  it('asks EDIT with the description and diff, writes, records state and history', async () => {
    const { approval, requests } = recordingApproval();
    const history = new FileHistory();
    const runtime = runtimeWith(approval, { history });
    const file = path.join(workDir, 'a.txt');
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'hello\n'));
    expect(outcome).toEqual({
      kind: 'written',
      action: FileActions.EDIT,
      created: true,
      bytes: 6,
      createdDirectories: [],
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
    expect(requests).toEqual([
      {
        sender: 'WriteFile',
        action: FileActions.EDIT,
        description: `Write file \`${file}\``,
        display: outcome.kind === 'written' ? outcome.display : [],
        path: file,
      },
    ]);
    expect(await fs.readFile(file, 'utf8')).toBe('hello\n');
    expect(await runtime.fileState.check(file)).toBe('ok');
    expect(history.list().map((entry) => [entry.path, entry.size])).toEqual([[file, null]]);
  });

  it('asks nothing and writes nothing for a byte-identical change', async () => {
    const { approval, requests } = recordingApproval();
    const runtime = runtimeWith(approval);
    await fs.writeFile(path.join(workDir, 'same.txt'), 'same');
    const before = await fs.stat(path.join(workDir, 'same.txt'));
    expect(await applyFileChange(runtime, await change(runtime, 'same.txt', 'same'))).toEqual({
      kind: 'unchanged',
    });
    expect(requests).toEqual([]);
    expect((await fs.stat(path.join(workDir, 'same.txt'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('asks EDIT_OUTSIDE outside the workspace and says Edit for edits', async () => {
    const { approval, requests } = recordingApproval();
    const runtime = runtimeWith(approval);
    const outside = path.join(root, 'outside.txt');
    await applyFileChange(
      runtime,
      await change(runtime, outside, 'x', { verb: 'Edit', sender: 'StrReplaceFile' }),
    );
    expect(requests.map((r) => [r.sender, r.action, r.description])).toEqual([
      ['StrReplaceFile', FileActions.EDIT_OUTSIDE, `Edit file \`${outside}\``],
    ]);
    expect(await fs.readFile(outside, 'utf8')).toBe('x');
  });

  it('returns the rejection and leaves the file alone', async () => {
    const { approval } = recordingApproval(async () => ({ kind: 'reject', feedback: 'use tabs' }));
    const runtime = runtimeWith(approval);
    const file = path.join(workDir, 'a.txt');
    await fs.writeFile(file, 'old');
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

  it('treats approve-for-session as approval and stops asking', async () => {
    const asked: string[] = [];
    const runtime = runtimeWith(
      new SessionApproval(async (request) => {
        asked.push(request.description);
        return { kind: 'approve_for_session' };
      }),
    );
    await applyFileChange(runtime, await change(runtime, 'a.txt', 'one'));
    await applyFileChange(runtime, await change(runtime, 'b.txt', 'two'));
    expect(await fs.readFile(path.join(workDir, 'a.txt'), 'utf8')).toBe('one');
    expect(await fs.readFile(path.join(workDir, 'b.txt'), 'utf8')).toBe('two');
    expect(asked).toEqual([`Write file \`${path.join(workDir, 'a.txt')}\``]);
  });

  it('checks read state before asking when it applies', async () => {
    const { approval, requests } = recordingApproval();
    const runtime = runtimeWith(approval);
    await fs.writeFile(path.join(workDir, 'a.txt'), 'old');
    const outcome = await applyFileChange(
      runtime,
      await change(runtime, 'a.txt', 'new', { checkReadState: true }),
    );
    expect(outcome.kind === 'refused' && outcome.result.message).toBe(
      '`a.txt` has not been read yet. Read it first before writing to it.',
    );
    expect(requests).toEqual([]);
    await markRead(runtime, path.join(workDir, 'a.txt'));
    expect(
      (await applyFileChange(runtime, await change(runtime, 'a.txt', 'new', { checkReadState: true }))).kind,
    ).toBe('written');
    // The write recorded the new state: a second edit needs no re-read.
    expect(
      (await applyFileChange(runtime, await change(runtime, 'a.txt', 'newer', { checkReadState: true })))
        .kind,
    ).toBe('written');
  });

  it('writes nothing when the file changes while the approval is pending', async () => {
    const file = path.join(workDir, 'a.txt');
    await fs.writeFile(file, 'old');
    const { approval } = recordingApproval(async () => {
      await fs.writeFile(file, 'the user typed this');
      return { kind: 'approve' };
    });
    const runtime = runtimeWith(approval);
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'new'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('the user typed this');
  });

  it('writes nothing when a new file appears while the approval is pending', async () => {
    const file = path.join(workDir, 'a.txt');
    const { approval } = recordingApproval(async () => {
      await fs.writeFile(file, 'someone else');
      return { kind: 'approve' };
    });
    const runtime = runtimeWith(approval);
    const outcome = await applyFileChange(runtime, await change(runtime, 'a.txt', 'mine'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readFile(file, 'utf8')).toBe('someone else');
  });

  it('creates the listed directories after approval only', async () => {
    const { approval: reject } = recordingApproval(async () => ({ kind: 'reject' }));
    const dirs = [path.join(workDir, 'a'), path.join(workDir, 'a', 'b')];
    const rejecting = runtimeWith(reject);
    await applyFileChange(rejecting, await change(rejecting, 'a/b/c.txt', 'x', { createDirectories: dirs }));
    await expect(fs.stat(dirs[0] as string)).rejects.toMatchObject({ code: 'ENOENT' });

    const runtime = runtimeWith(yoloApproval());
    const outcome = await applyFileChange(
      runtime,
      await change(runtime, 'a/b/c.txt', 'x', { createDirectories: dirs }),
    );
    expect(outcome.kind === 'written' && outcome.createdDirectories).toEqual(dirs);
    expect(await fs.readFile(path.join(workDir, 'a', 'b', 'c.txt'), 'utf8')).toBe('x');
  });

  it('serialises concurrent changes computed from the same bytes: one wins, the other is refused', async () => {
    const runtime = runtimeWith(yoloApproval());
    const file = path.join(workDir, 'a.txt');
    await fs.writeFile(file, 'base');
    const first = await change(runtime, 'a.txt', 'first');
    const second = await change(runtime, 'a.txt', 'second');
    const outcomes = await Promise.all([applyFileChange(runtime, first), applyFileChange(runtime, second)]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['written', 'refused']);
    expect(await fs.readFile(file, 'utf8')).toBe('first');
  });
  it('keeps two runtimes (two agents) from both writing changes computed from the same bytes', async () => {
    const file = path.join(workDir, 'a.txt');
    await fs.writeFile(file, 'base');
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
    const agents = [runtimeWith(gated), runtimeWith(gated)];
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
    expect(await fs.readdir(workDir)).toEqual(['a.txt']);
  });
  it('refuses when a directory on the path is swapped for a symlink to outside while the approval is pending', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.mkdir(path.join(workDir, 'sub'));
    const swap: Approval = {
      request: async () => {
        await fs.rename(path.join(workDir, 'sub'), path.join(workDir, 'sub.moved'));
        await fs.symlink(outside, path.join(workDir, 'sub'));
        return { kind: 'approve' };
      },
    };
    const runtime = runtimeWith(swap);
    const outcome = await applyFileChange(runtime, await change(runtime, 'sub/new.txt', 'x'));
    expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
    expect(await fs.readdir(outside)).toEqual([]);
  });
  it('shows the creation of an empty file as one empty block, in the approval and the outcome', async () => {
    const { approval, requests } = recordingApproval();
    const runtime = runtimeWith(approval);
    const outcome = await applyFileChange(runtime, await change(runtime, 'empty.txt', ''));
    const block = {
      type: 'diff',
      path: path.join(workDir, 'empty.txt'),
      oldText: '',
      newText: '',
      oldStart: 1,
      newStart: 1,
      isSummary: false,
    };
    expect(requests.map((request) => request.display)).toEqual([[block]]);
    expect(outcome.kind === 'written' && outcome.display).toEqual([block]);
    expect(await fs.readFile(path.join(workDir, 'empty.txt'), 'utf8')).toBe('');
  });
});
