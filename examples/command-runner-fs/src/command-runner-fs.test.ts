import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { describeFileSystemConformance } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import { commandRunnerFileSystem, prefixRunner } from './index.js';

// No container runtime runs in CI, so the runner runs its commands here (`prefixRunner([])`); with
// `prefixRunner(['docker', 'exec', '-i', NAME])` the very same backend reaches a container's files.
const backend = commandRunnerFileSystem(prefixRunner([]));

async function tempRoot(): Promise<string> {
  return nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-runner-')));
}

describeFileSystemConformance('command runner', async () => {
  const root = await tempRoot();
  return {
    fs: backend,
    root,
    mkfifo: async (fifo) => {
      await promisify(execFile)('mkfifo', [fifo]);
    },
    cleanup: () => nodeFs.rm(root, { recursive: true, force: true }),
  };
});

describe('the identity of a command-runner backend', () => {
  it('is its own unless given: two containers with one work dir never share what this host keeps for them', () => {
    const other = commandRunnerFileSystem(prefixRunner([]));
    expect(backend.identity).toMatch(/^command-runner [0-9a-f-]{36}$/);
    expect(other.identity).not.toBe(backend.identity);
    expect(commandRunnerFileSystem(prefixRunner([]), { identity: 'docker box' }).identity).toBe('docker box');
  });
});

describe('the tools on a command-runner backend', () => {
  it('read and edit files that only commands reach, byte for byte', async () => {
    const root = await tempRoot();
    try {
      await nodeFs.writeFile(path.join(root, 'app.ini'), 'host = a\r\nport = 1\r\n');
      const runtime = createRuntime({ workDir: root, approval: yoloApproval(), fs: backend });
      const read = await new ReadFile(runtime).call({ path: 'app.ini' });
      expect(read.output).toBe('     1\thost = a\n     2\tport = 1\n');
      const edit = await new StrReplaceFile(runtime).call({
        path: 'app.ini',
        edit: { old: 'port = 1', new: 'port = 2' },
      });
      expect(edit.isError).toBe(false);
      expect(await nodeFs.readFile(path.join(root, 'app.ini'), 'utf8')).toBe('host = a\r\nport = 2\r\n');
      expect(await nodeFs.readdir(root)).toEqual(['app.ini']);
    } finally {
      await nodeFs.rm(root, { recursive: true, force: true });
    }
  });
});
