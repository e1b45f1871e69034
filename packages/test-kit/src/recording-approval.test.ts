import { FileActions, type ApprovalRequest } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { recordingApproval } from './recording-approval.js';

function request(path: string): ApprovalRequest {
  return { sender: 'Test', action: FileActions.EDIT, description: `Edit \`${path}\``, display: [], path };
}

describe('recordingApproval', () => {
  it('approves by default and records every request in order', async () => {
    const approval = recordingApproval();
    expect(await approval.request(request('/a'))).toEqual({ kind: 'approve' });
    expect(await approval.request(request('/b'))).toEqual({ kind: 'approve' });
    expect(approval.requests).toEqual([request('/a'), request('/b')]);
  });

  it('answers with a fixed response', async () => {
    const approval = recordingApproval({ kind: 'reject', feedback: 'not now' });
    expect(await approval.request(request('/a'))).toEqual({ kind: 'reject', feedback: 'not now' });
    expect(approval.requests).toEqual([request('/a')]);
  });

  it('answers with a script that sees the request and the signal, and records before asking it', async () => {
    const approval = recordingApproval((asked, signal) => {
      expect(approval.requests).toEqual([asked]);
      return asked.path === '/ok' && signal?.aborted === false ? { kind: 'approve' } : { kind: 'reject' };
    });
    expect(await approval.request(request('/ok'), new AbortController().signal)).toEqual({ kind: 'approve' });
    expect(approval.requests).toHaveLength(1);
    const asyncApproval = recordingApproval(async () => ({ kind: 'approve_for_session' }));
    expect(await asyncApproval.request(request('/x'))).toEqual({ kind: 'approve_for_session' });
  });
});
