import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeFileSystemConformance } from '@kimi-tools/test-kit';
import { beforeAll } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import type { SshFileSystem } from './ssh-file-system.js';

// The SSH backend against every promise of the interface, on a real OpenSSH server. The server runs on this machine,
// so a case's directory is made (and a FIFO made in it) with the local tools, and used over SSH.
const ssh = useSshServer();
let fs: SshFileSystem;
beforeAll(async () => {
  fs = await ssh.connect(os.tmpdir());
});

describeFileSystemConformance('ssh', async () => {
  const root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-ssh-fs-')));
  return {
    fs,
    root,
    mkfifo: async (fifo) => {
      await promisify(execFile)('mkfifo', [fifo]);
    },
    cleanup: () => nodeFs.rm(root, { recursive: true, force: true }),
  };
});
