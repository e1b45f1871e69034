import { describe, expect, it } from 'vitest';
import {
  rejectAllApproval,
  SessionApproval,
  yoloApproval,
  type ApprovalRequest,
  type ApprovalResponse,
} from './approval.js';
import { FileActions } from './file-actions.js';

function request(action: ApprovalRequest['action'], extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    sender: 'WriteFile',
    action,
    description: 'Write file `/w/a`',
    display: [],
    path: '/w/a',
    ...extra,
  };
}

/** A SessionApproval that answers `answer` and records the paths it was asked about. */
function asking(answer: ApprovalResponse, options?: ConstructorParameters<typeof SessionApproval>[1]) {
  const asked: string[] = [];
  const approval = new SessionApproval(async (req) => {
    asked.push((req.paths ?? [req.path]).join(' '));
    return answer;
  }, options);
  const at = (...paths: string[]) =>
    request(FileActions.EDIT, { path: paths[0]!, ...(paths.length > 1 ? { paths } : {}) });
  return { approval, asked, at };
}

describe('approvals', () => {
  it('has the action texts users see', () => {
    expect(FileActions).toEqual({
      READ: 'read file',
      EDIT: 'edit file',
      EDIT_OUTSIDE: 'edit file outside of working directory',
    });
  });

  it('yolo approves and reject-all rejects', async () => {
    expect(await yoloApproval().request(request(FileActions.EDIT))).toEqual({ kind: 'approve' });
    expect(await rejectAllApproval().request(request(FileActions.EDIT))).toEqual({ kind: 'reject' });
    expect(await rejectAllApproval('read-only').request(request(FileActions.EDIT))).toEqual({
      kind: 'reject',
      feedback: 'read-only',
    });
  });

  it('remembers approve-for-session per action only', async () => {
    const asked: string[] = [];
    const approval = new SessionApproval(async (req) => {
      asked.push(req.action);
      return req.action === FileActions.EDIT ? { kind: 'approve_for_session' } : { kind: 'reject' };
    });
    expect(await approval.request(request(FileActions.EDIT))).toEqual({ kind: 'approve_for_session' });
    expect(await approval.request(request(FileActions.EDIT))).toEqual({ kind: 'approve' });
    expect(await approval.request(request(FileActions.EDIT_OUTSIDE))).toEqual({ kind: 'reject' });
    expect(await approval.request(request(FileActions.EDIT_OUTSIDE))).toEqual({ kind: 'reject' });
    expect(asked).toEqual([FileActions.EDIT, FileActions.EDIT_OUTSIDE, FileActions.EDIT_OUTSIDE]);
    expect(approval.isApprovedForSession(FileActions.EDIT)).toBe(true);
    approval.reset();
    expect(approval.isApprovedForSession(FileActions.EDIT)).toBe(false);
  });

  it('keeps asking after a one-time approval', async () => {
    let count = 0;
    const approval = new SessionApproval(async () => {
      count += 1;
      return { kind: 'approve' };
    });
    await approval.request(request(FileActions.EDIT));
    await approval.request(request(FileActions.EDIT));
    expect(count).toBe(2);
  });

  it('remembers a file scope per file and action, a request of several files when every file is covered', async () => {
    const { approval, asked, at } = asking({ kind: 'approve_for_session', scope: 'file' });
    await approval.request(at('/w/a.ts'));
    expect(await approval.request(at('/w/a.ts'))).toEqual({ kind: 'approve' });
    await approval.request(at('/w/b.ts'));
    await approval.request(request(FileActions.EDIT_OUTSIDE, { path: '/w/a.ts' }));
    await approval.request(at('/w/a.ts', '/w/c.ts'));
    await approval.request(at('/w/c.ts', '/w/b.ts', '/w/a.ts'));
    expect(asked).toEqual(['/w/a.ts', '/w/b.ts', '/w/a.ts', '/w/a.ts /w/c.ts']);
    expect(approval.approvedScope(at('/w/c.ts'))).toBe('file');
    expect(approval.approvedScope(at('/w/d.ts'))).toBeUndefined();
    expect(approval.isApprovedForSession(FileActions.EDIT)).toBe(false);
  });

  it('remembers a directory scope as the directory of each file and everything under it', async () => {
    const { approval, asked, at } = asking({ kind: 'approve_for_session', scope: 'directory' });
    await approval.request(at('/w/src/a.ts'));
    for (const file of ['/w/src/b.ts', '/w/src/deep/c.ts', '/w/src-old/d.ts', '/w/e.ts', '/w/src/f.ts']) {
      await approval.request(at(file));
    }
    expect(asked).toEqual(['/w/src/a.ts', '/w/src-old/d.ts', '/w/e.ts']);
    // `/w/e.ts` made `/w` approved: the whole tree under it is now.
    expect(approval.approvedScope(at('/w/anything/x.ts'))).toBe('directory');
    approval.reset();
    expect(approval.approvedScope(at('/w/src/a.ts'))).toBeUndefined();
  });

  it("keeps today's meaning without a scope, and with scope 'action'", async () => {
    for (const answer of [
      { kind: 'approve_for_session' },
      { kind: 'approve_for_session', scope: 'action' },
    ] as const) {
      const { approval, asked, at } = asking(answer);
      await approval.request(at('/w/a.ts'));
      await approval.request(at('/elsewhere/b.ts'));
      expect(asked).toEqual(['/w/a.ts']);
      expect(approval.approvedScope(at('/x'))).toBe('action');
    }
  });

  it('asks again a request an ask rule sent, whatever the session approved', async () => {
    const { approval, asked, at } = asking({ kind: 'approve_for_session' });
    await approval.request(at('/w/a.ts'));
    await approval.request({ ...at('/w/.github/ci.yml'), rule: 'ask Edit(.github/**)' });
    await approval.request({ ...at('/w/.github/ci.yml'), rule: 'ask Edit(.github/**)' });
    expect(asked).toEqual(['/w/a.ts', '/w/.github/ci.yml', '/w/.github/ci.yml']);
  });

  it('approves once an answer whose scope it does not know', async () => {
    const { approval, asked, at } = asking({ kind: 'approve_for_session', scope: 'repository' } as never);
    await approval.request(at('/w/a.ts'));
    await approval.request(at('/w/a.ts'));
    expect(asked).toEqual(['/w/a.ts', '/w/a.ts']);
  });

  it('compares files and directories without case on Windows', async () => {
    const { approval, asked } = asking({ kind: 'approve_for_session', scope: 'file' }, { platform: 'win32' });
    const at = (file: string) => request(FileActions.EDIT, { path: file });
    await approval.request(at('C:\\Work\\a.ts'));
    await approval.request(at('c:\\work\\A.TS'));
    expect(asked).toEqual(['C:\\Work\\a.ts']);
    const directories = asking({ kind: 'approve_for_session', scope: 'directory' }, { platform: 'win32' });
    await directories.approval.request(at('C:\\Work\\src\\a.ts'));
    expect(directories.approval.approvedScope(at('c:\\work\\SRC\\b.ts'))).toBe('directory');
  });
});
