import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanupStaleTempFiles, withFileLock } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, onSkewedClock, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

// A host whose SFTP server cannot write its temp directory (a read-only /tmp, a chroot without one): its SFTP server
// runs in a mount namespace of its own where /tmp is read-only, and the workspace lies elsewhere.
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
beforeEach(async () => {
  tree = await createTempWorkspace({ parent: '/var/tmp' });
});
afterEach(() => tree.cleanup());

describe('a host whose temp directory the SFTP server cannot write', () => {
  test('has its clock read in the workspace, which it leaves as it was', async () => {
    const fs = await ssh.connect(tree.workDir);
    await expect(fs.create('/tmp/kimi-read-only-probe')).rejects.toMatchObject({ code: 'EIO' });
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
