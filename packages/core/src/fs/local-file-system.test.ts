import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeFileSystemConformance } from '@kimi-tools/test-kit';
import { localFileSystem } from './local-file-system.js';

// The local disk against every promise of the interface: the reference the other backends are held to.
describeFileSystemConformance('local', async () => {
  const root = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-fs-')));
  return {
    fs: localFileSystem,
    root,
    mkfifo: async (fifo) => {
      await promisify(execFile)('mkfifo', [fifo]);
    },
    cleanup: () => nodeFs.rm(root, { recursive: true, force: true }),
  };
});
