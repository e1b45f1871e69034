import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { backendHas, createTempWorkspace, markRead } from '@kimi-tools/test-kit';
import { describe, expect, it } from 'vitest';
import { WriteFile } from './write-file.js';

/** Mounts a 64 KiB tmpfs on `directory`; false where mounting is not allowed. */
function mountSmallTmpfs(directory: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', directory], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Fills the file system of `directory` until a write fails with ENOSPC. */
async function fill(directory: string): Promise<void> {
  const chunk = Buffer.alloc(4096, 0x61);
  for (let i = 0; ; i++) {
    try {
      await fs.writeFile(path.join(directory, `filler-${i}`), chunk);
    } catch {
      return;
    }
  }
}

describe('WriteFile on a full disk (docs/writing.md)', () => {
  // The tmpfs is mounted on this machine, where the SSH run's server serves it from.
  it.runIf(backendHas('disk'))(
    'answers with an error and leaves neither a lock file nor a temp file behind',
    async (context) => {
      const workspace = await createTempWorkspace();
      const disk = workspace.outside('disk');
      await workspace.mkdir(disk);
      if (!mountSmallTmpfs(disk)) {
        await workspace.cleanup();
        context.skip('mounting a tmpfs is not allowed here (needs root and mount rights)');
        return;
      }
      try {
        const runtime = workspace.runtime();
        const file = path.join(disk, 'a.txt');
        await workspace.write(file, 'old\n');
        await markRead(runtime, file);
        await fill(disk);
        const before = await workspace.list(disk);
        for (const content of ['new\n', 'n'.repeat(32 << 10)]) {
          const result = await new WriteFile(runtime).call({ path: file, content });
          expect(result.isError).toBe(true);
          expect(await workspace.list(disk)).toEqual(before);
          expect(await workspace.read(file)).toBe('old\n');
        }
      } finally {
        // The SSH backend closes a file it only read without waiting for the answer; a request after it, answered
        // in order, makes sure the server has let go of the disk before it is unmounted.
        await workspace.fs.stat(disk).catch(() => undefined);
        execFileSync('umount', [disk]);
        await workspace.cleanup();
      }
    },
  );
});
