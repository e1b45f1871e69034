// Shared set-up of the WriteFile tests: a real temp workspace, a runtime, and an approval that records requests.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createRuntime,
  type Approval,
  type ApprovalRequest,
  type ApprovalResponse,
  type RuntimeOptions,
  type ToolRuntime,
} from '@kimi-tools/core';
import { snapshotOf } from '@kimi-tools/core/toolkit';
import { WriteFile } from '../write-file.js';

/** A temp directory holding `work/` (the work dir) and room for files outside it. */
export interface Sandbox {
  root: string;
  workDir: string;
  /** Absolute path of `relative` inside the work dir. */
  at(relative: string): string;
  cleanup(): Promise<void>;
}

/** Creates a sandbox; its paths are real (no symlinked temp dir), so messages can be compared exactly. */
export async function createSandbox(): Promise<Sandbox> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-write-')));
  const workDir = path.join(root, 'work');
  await fs.mkdir(workDir);
  return {
    root,
    workDir,
    at: (relative) => path.join(workDir, relative),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/** An approval that records every request and answers with `answer` (approve by default). */
export function recordingApproval(
  answer: (request: ApprovalRequest) => Promise<ApprovalResponse> = async () => ({ kind: 'approve' }),
): Approval & { requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    request: async (request) => {
      requests.push(request);
      return answer(request);
    },
  };
}

/** A runtime on the sandbox and a WriteFile on it. */
export function setUp(sandbox: Sandbox, approval: Approval, options: Partial<RuntimeOptions> = {}) {
  const runtime: ToolRuntime = createRuntime({ workDir: sandbox.workDir, approval, ...options });
  return { runtime, tool: new WriteFile(runtime) };
}

/** What ReadFile records after reading the whole file. */
export async function markRead(runtime: ToolRuntime, filePath: string): Promise<void> {
  const real = await fs.realpath(filePath);
  runtime.fileState.recordRead(real, snapshotOf(await fs.readFile(real), await fs.stat(real)), true);
}

/** The file's bytes as an array (for exact comparisons). */
export async function bytesOf(filePath: string): Promise<number[]> {
  return [...(await fs.readFile(filePath))];
}
