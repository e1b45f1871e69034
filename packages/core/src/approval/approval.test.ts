import { describe, expect, it } from 'vitest';
import { rejectAllApproval, SessionApproval, yoloApproval, type ApprovalRequest } from './approval.js';
import { FileActions } from './file-actions.js';

function request(action: ApprovalRequest['action']): ApprovalRequest {
  return { sender: 'WriteFile', action, description: 'Write file `/w/a`', display: [], path: '/w/a' };
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
});
