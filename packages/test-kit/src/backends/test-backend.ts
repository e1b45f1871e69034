import type { FileSystem } from '@kimi-tools/core';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import { inject } from 'vitest';
import { TEST_BACKEND_VARIABLE, TEST_BACKENDS, type TestBackendName } from './backend-names.js';

/** How a test worker reaches the run's SSH server (provided by `ssh-global-setup.ts`). */
export interface TestSshServer {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey: string;
  /** The server's public host key line: the only key the client accepts. */
  readonly hostKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's SSH server, in the `ssh` project only. */
    kimiTestSshServer?: TestSshServer;
  }
}

/** The backend this test run is on, from {@link TEST_BACKEND_VARIABLE}; anything else is refused, never ignored. */
export function testBackendName(): TestBackendName {
  const requested = process.env[TEST_BACKEND_VARIABLE] || 'local';
  if (!(TEST_BACKENDS as readonly string[]).includes(requested)) {
    throw new Error(`${TEST_BACKEND_VARIABLE} must be one of ${TEST_BACKENDS.join(', ')}, not ${requested}`);
  }
  return requested as TestBackendName;
}

// One file system per test worker (a test file under isolation): one memory workspace, one SSH connection. Test-only
// state, so no runtime shares it with another; the SSH connection is closed after every file (`backend-setup.ts`),
// and the next call of the next file connects again.
let memory: FileSystem | undefined;
let ssh: Promise<FileSystem & { close(): Promise<void> }> | undefined;

/** The file system of `backend` (default: this run's), made on first use and shared by the worker's tests. */
export async function testFileSystem(backend: TestBackendName = testBackendName()): Promise<FileSystem> {
  switch (backend) {
    case 'local':
      return localFileSystem;
    case 'memory':
      return (memory ??= memoryFileSystem());
    case 'ssh':
      return (ssh ??= connectSsh());
  }
}

/** Closes the worker's SSH connection, if one was made (the next use connects again). */
export async function closeTestFileSystem(): Promise<void> {
  if (!ssh) return;
  const connection = ssh;
  ssh = undefined;
  await (await connection.catch(() => undefined))?.close();
}

/**
 * How to reach the run's SSH server (`undefined` when the run is on another backend), for a child process that
 * connects by itself: `sshFileSystem({ ...server, root })`.
 */
export function testSshServer(): TestSshServer | undefined {
  return testBackendName() === 'ssh' ? inject('kimiTestSshServer') : undefined;
}

async function connectSsh() {
  const server = testSshServer();
  if (!server) {
    throw new Error(
      `${TEST_BACKEND_VARIABLE}=ssh needs the run's SSH server: run the package's \`ssh\` project (vitest.shared.ts)`,
    );
  }
  // Loaded on use: the local and memory runs never load the SSH client.
  const { sshFileSystem } = await import('@kimi-tools/ssh');
  return sshFileSystem({ ...server, root: '/' });
}
