import { promises as nodeFs } from 'node:fs';
import { createRuntime, yoloApproval, type FileSystem } from '@kimi-tools/core';
import type { FileStats, OpenFile } from '@kimi-tools/core/fs';
import { sshFileSystem, type SshFileSystem } from '@kimi-tools/ssh';
import {
  createTempWorkspace,
  forwardingFileSystem,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createCheckpoints, defaultStoreDirectory } from './index.js';

// Checkpoints of a workspace on another host, over the real OpenSSH server of the test kit on 127.0.0.1.

const HOUR = 3_600_000;

let server: SshServer;
const opened: SshFileSystem[] = [];
let tree: TempWorkspace;
beforeAll(async () => {
  server = await startSshServer();
});
afterAll(async () => {
  await Promise.all(opened.map((fs) => fs.close()));
  await server.stop();
});
beforeEach(async () => {
  tree = await createTempWorkspace();
});
afterEach(() => tree.cleanup());

/** A backend on `host` (default: the file's server) for the workspace of the test. */
async function connect(host: SshServer = server): Promise<SshFileSystem> {
  const fs = await sshFileSystem({
    host: host.host,
    port: host.port,
    username: host.username,
    privateKey: host.privateKey,
    hostKey: host.hostKeys[0]!.line,
    root: tree.workDir,
  });
  opened.push(fs);
  return fs;
}

/** Stats whose modification time is `skew` later: what a host whose clock is `skew` ahead stamps. */
function skewedStats(stats: FileStats, skew: number): FileStats {
  return Object.create(stats, { mtimeMs: { value: stats.mtimeMs + skew, enumerable: true } }) as FileStats;
}

/** An open file whose `stat()` is that of a host whose clock is `skew` ahead. */
function skewedFile(file: OpenFile, skew: number): OpenFile {
  return {
    read: (...args) => file.read(...args),
    write: (...args) => file.write(...args),
    stat: async () => skewedStats(await file.stat(), skew),
    truncate: (length) => file.truncate(length),
    sync: () => file.sync(),
    chmod: (mode) => file.chmod(mode),
    chown: (uid, gid) => file.chown(uid, gid),
    close: () => file.close(),
  };
}

/**
 * The host as if its clock were `skew` ahead of this machine's (behind when negative): every time it reports, its
 * files' and its clock's, moved by `skew`. The files opened are recorded.
 */
function onSkewedClock(fs: SshFileSystem, skew: number): { fs: FileSystem; opened: string[] } {
  const openedFiles: string[] = [];
  return {
    opened: openedFiles,
    fs: {
      ...forwardingFileSystem(fs),
      stat: async (path) => skewedStats(await fs.stat(path), skew),
      lstat: async (path) => skewedStats(await fs.lstat(path), skew),
      open: async (path, mode) => {
        openedFiles.push(path.slice(tree.workDir.length + 1));
        return skewedFile(await fs.open(path, mode), skew);
      },
      create: async (path, mode) => skewedFile(await fs.create(path, mode), skew),
      now: async () => (await fs.now()) + skew,
    },
  };
}

describe('checkpoints of a workspace on a host over SSH', () => {
  for (const [direction, skew] of [
    ['behind', -HOUR],
    ['ahead', HOUR],
  ] as const) {
    test(`on a host whose clock is an hour ${direction}, see a file rewritten with its size and time kept right after a checkpoint, and read no settled file again`, async () => {
      const { fs, opened: openedFiles } = onSkewedClock(await connect(), skew);
      const runtime = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs });
      const checkpoints = createCheckpoints(runtime, { dir: tree.outside('store') });
      const settled = await tree.write('settled.txt', 'settled\n');
      const hostNow = Date.now();
      await nodeFs.utimes(settled, (hostNow - HOUR) / 1000, (hostNow - HOUR) / 1000);
      // Stamped as the checkpoint's scan begins, or later: SFTP's whole seconds cannot show a change in that second.
      const racy = await tree.write('racy.txt', 'one\n');
      await nodeFs.utimes(racy, (hostNow + 30_000) / 1000, (hostNow + 30_000) / 1000);
      const first = await checkpoints.create();
      expect(first.files.map((file) => file.path)).toEqual(['racy.txt', 'settled.txt']);
      // The same size and the same time: over SFTP (no change time, no inode) its stamp is the one the scan saw.
      const stamp = await nodeFs.stat(racy);
      await nodeFs.writeFile(racy, 'two\n');
      await nodeFs.utimes(racy, stamp.atime, stamp.mtime);
      openedFiles.length = 0;
      const second = await checkpoints.create();
      expect(second.files).toEqual([{ path: 'racy.txt', change: 'modified' }]);
      expect(openedFiles).toEqual(['racy.txt']);
    });
  }

  test('keeps the stores of one path on two hosts apart by default, keyed by user, host and port', async () => {
    const other = await startSshServer();
    const saved = process.env.XDG_STATE_HOME;
    const state = tree.outside('state');
    process.env.XDG_STATE_HOME = state;
    try {
      const onFirst = createCheckpoints(
        createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: await connect() }),
      );
      const onSecond = createCheckpoints(
        createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: await connect(other) }),
      );
      expect(onFirst.directory).toBe(
        defaultStoreDirectory(`ssh ${server.username}@${server.host}:${server.port}`, tree.workDir, {
          XDG_STATE_HOME: state,
        }),
      );
      expect(onSecond.directory).not.toBe(onFirst.directory);
      await tree.write('a.txt', 'a\n');
      await onFirst.create('on the first host');
      expect((await onFirst.list()).map((checkpoint) => checkpoint.label)).toEqual(['on the first host']);
      expect(await onSecond.list()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = saved;
      await other.stop();
    }
  });
});
