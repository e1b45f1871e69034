import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { cleanupStaleTempFiles, withFileLock } from '@kimi-tools/core/toolkit';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { createTempWorkspace, onSkewedClock, type TempWorkspace } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

// A host whose SFTP server finds /tmp mounted read-only: it runs in a mount namespace of its own where /tmp is so. A
// workspace in /tmp is then on a read-only file system; one in /var/tmp is not, on a host whose temp directory the
// SFTP server cannot write (a read-only /tmp, a chroot without one).
const serverScript = path.join(os.tmpdir(), `kimi-read-only-tmp-sftp-${process.pid}.sh`);
beforeAll(() =>
  nodeFs.writeFile(
    serverScript,
    "#!/bin/sh\nexec unshare -m sh -c 'mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp && " +
      "exec /usr/lib/openssh/sftp-server' 2>/dev/null\n",
    { mode: 0o755 },
  ),
);
afterAll(() => nodeFs.rm(serverScript));
const ssh = useSshServer({ sftp: serverScript });
let tree: TempWorkspace;
afterEach(() => tree.cleanup());

describe('a host whose temp directory the SFTP server cannot write', () => {
  beforeEach(async () => {
    tree = await createTempWorkspace({ parent: '/var/tmp' });
  });

  test('has its clock read in the workspace, which it leaves as it was', async () => {
    const fs = await ssh.connect(tree.workDir);
    await expect(fs.create('/tmp/kimi-read-only-probe')).rejects.toMatchObject({ code: 'EROFS' });
    for (let call = 0; call < 2; call++) {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const now = await fs.now();
      // The loopback host shares this machine's clock; SFTP stamps whole seconds.
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
      expect(await nodeFs.readdir(tree.workDir)).toEqual([]);
    }
  });

  test('on a host an hour behind, the clean-up keeps a fresh temp file and a live lock', async () => {
    const file = await tree.write('a.txt', 'x');
    const fresh = tree.at('.b.txt.kimi-tmp-ba9876543210');
    await nodeFs.writeFile(fresh, 'fresh');
    const fs = await ssh.connect(tree.workDir);
    const host = onSkewedClock(fs, -3_600_000);
    const removed = await withFileLock(host, file, () => cleanupStaleTempFiles(host, tree.workDir));
    expect(removed).toEqual([]);
    // The lock's removal is sent, not waited for: a request after it finds it made.
    await fs.stat(tree.workDir);
    expect((await nodeFs.readdir(tree.workDir)).sort()).toEqual([path.basename(fresh), 'a.txt']);
  });
});

describe('a workspace on a file system mounted read-only', () => {
  beforeEach(async () => {
    tree = await createTempWorkspace();
  });

  test('a write or an edit fails saying so (EROFS), as on the local disk, and changes nothing', async () => {
    await tree.write('a.txt', 'value=1\n');
    const fs = await ssh.connect(tree.workDir);
    const runtime = createRuntime({ workDir: fs.root, approval: yoloApproval(), fs });
    expect((await new ReadFile(runtime).call({ path: 'a.txt' })).isError).toBe(false);
    const write = new WriteFile(runtime);
    const edit = new StrReplaceFile(runtime);
    const results = [
      await write.call({ path: 'new.txt', content: 'x\n' }),
      await write.call({ path: 'sub/new.txt', content: 'x\n' }),
      await write.call({ path: 'a.txt', content: 'x\n' }),
      await edit.call({ path: 'a.txt', edit: { old: 'value', new: 'name' } }),
    ];
    const at = (name: string) => `'${tree.at(name)}'`;
    expect(results.map((result) => result.message)).toEqual([
      `Failed to write to new.txt. Error: EROFS: read-only file system, open ${at('.new.txt.kimi-lock')}`,
      `Failed to write to sub/new.txt. Error: EROFS: read-only file system, mkdir ${at('sub')}`,
      `Failed to write to a.txt. Error: EROFS: read-only file system, open ${at('.a.txt.kimi-lock')}`,
      `Failed to edit. Error: EROFS: read-only file system, open ${at('.a.txt.kimi-lock')}`,
    ]);
    expect(await nodeFs.readdir(tree.workDir)).toEqual(['a.txt']);
    expect(await nodeFs.readFile(tree.at('a.txt'), 'utf8')).toBe('value=1\n');
  });

  test('every change the backend is asked for is EROFS', async () => {
    const file = await tree.write('a.txt', 'a\n');
    await tree.mkdir('dir');
    const fs = await ssh.connect(tree.workDir);
    const refusals = await Promise.all(
      [
        fs.create(tree.at('b.txt')),
        fs.open(file, 'update'),
        fs.mkdir(tree.at('new')),
        fs.symlink('a.txt', tree.at('link')),
        fs.rename(file, tree.at('b.txt')),
        fs.unlink(file),
        fs.rmdir(tree.at('dir')),
        fs.chmod(file, 0o600),
        fs.utimes(file, 1, 1),
      ].map((operation) =>
        operation.then(
          () => 'done',
          (error: NodeJS.ErrnoException) => error.code,
        ),
      ),
    );
    expect(refusals).toEqual(Array(9).fill('EROFS'));
  });
});
