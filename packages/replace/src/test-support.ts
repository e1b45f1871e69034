import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createRuntime,
  type ApprovalRequest,
  type ApprovalResponse,
  type RuntimeOptions,
  type ToolRuntime,
} from '@kimi-tools/core';
import { snapshotOf } from '@kimi-tools/core/toolkit';
import { StrReplaceFile, type StrReplaceFileOptions } from './str-replace-file.js';

/** A temp work dir, a runtime that records approval requests, and a StrReplaceFile on it. For tests only. */
export interface Workspace {
  dir: string;
  runtime: ToolRuntime;
  tool: StrReplaceFile;
  requests: ApprovalRequest[];
  /** Writes a file under the work dir and returns its absolute path. */
  write(name: string, content: string | Uint8Array): Promise<string>;
  /** Records a complete read of the file, as ReadFile would. */
  markRead(filePath: string): Promise<void>;
  /** Writes and marks as read. */
  writeRead(name: string, content: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

/** Runtime options of a {@link Workspace}, and the tool's own (`match`). */
export type WorkspaceOptions = Partial<Omit<RuntimeOptions, 'workDir' | 'approval'>> & StrReplaceFileOptions;

/** Creates a {@link Workspace}; `answer` decides each approval (approve by default). */
export async function createWorkspace(
  { match, ...options }: WorkspaceOptions = {},
  answer: (request: ApprovalRequest) => Promise<ApprovalResponse> = async () => ({ kind: 'approve' }),
): Promise<Workspace> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-replace-')));
  const requests: ApprovalRequest[] = [];
  const runtime = createRuntime({
    workDir: dir,
    approval: {
      request: async (request) => {
        requests.push(request);
        return answer(request);
      },
    },
    ...options,
  });
  const tool = new StrReplaceFile(runtime, match === undefined ? {} : { match });
  const write = async (name: string, content: string | Uint8Array) => {
    const filePath = path.join(dir, name);
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, content);
    return filePath;
  };
  const markRead = async (filePath: string) => {
    const real = await fs.realpath(filePath);
    const bytes = await fs.readFile(real);
    runtime.fileState.recordRead(real, snapshotOf(bytes, await fs.stat(real)), true);
  };
  return {
    dir,
    runtime,
    tool,
    requests,
    write,
    markRead,
    writeRead: async (name, content) => {
      const filePath = await write(name, content);
      await markRead(filePath);
      return filePath;
    },
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
