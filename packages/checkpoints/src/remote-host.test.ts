import { promises as nodeFs } from 'node:fs';
import { createRuntime, yoloApproval, type FileSystem } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { sshFileSystem, type SshFileSystem } from '@kimi-tools/ssh';
import {
  createTempWorkspace,
  onSkewedClock,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createCheckpoints, defaultStoreDirectory } from './index.js';
import { pausedAtCommit, raceRewind, startPausedWrite } from './__fixtures__/racing-writer.js';

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

/**
 * The host as if its clock were `skew` ahead of this machine's (behind when negative), with the files it opens
 * recorded.
 */
function onSkewedClockRecorded(fs: SshFileSystem, skew: number): { fs: FileSystem; opened: string[] } {
  const openedFiles: string[] = [];
  const skewed = onSkewedClock(fs, skew);
  return {
    opened: openedFiles,
    fs: {
      ...skewed,
      open: (path, mode) => {
        openedFiles.push(path.slice(tree.workDir.length + 1));
        return skewed.open(path, mode);
      },
    },
  };
}

describe('checkpoints of a workspace on a host over SSH', () => {
  for (const [direction, skew] of [
    ['behind', -HOUR],
    ['ahead', HOUR],
  ] as const) {
    test(`on a host whose clock is an hour ${direction}, see a file rewritten with its size and time kept right after a checkpoint, and read no settled file again`, async () => {
      const { fs, opened: openedFiles } = onSkewedClockRecorded(await connect(), skew);
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

  test('waits for the lock of a WriteFile made on the host meanwhile, and writes nothing over it', async () => {
    const paused = pausedAtCommit(await connect(), tree.workDir);
    const runtime = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: paused.fs });
    const checkpoints = createCheckpoints(runtime, { dir: tree.outside('store') });
    const file = await tree.write('a.txt', 'a1\n');
    await checkpoints.create('1');
    await nodeFs.writeFile(file, 'a2\n');
    await checkpoints.create('2');
    // An agent on the host itself (the local disk is the host's here) has checked a.txt under its lock.
    const write = startPausedWrite(localFileSystem, tree.workDir, file, 'on the host\n');
    await write.inLock;

    expect(await raceRewind(() => checkpoints.rewind('1'), paused, write)).toEqual({
      write: 'written',
      rewind: { kind: 'changed', paths: ['a.txt'] },
    });
    expect(paused.waitedOnLock).toBe(true);
    expect(await nodeFs.readFile(file, 'utf8')).toBe('on the host\n');
    // The rewind's lock removal is sent, not waited for: a stat asked after it on that connection is answered after it.
    await paused.fs.stat(tree.workDir);
    expect(await nodeFs.readdir(tree.workDir)).toEqual(['a.txt']);
  });
  test('leaves out a name that is not UTF-8, which SFTP cannot carry: a checkpoint and a rewind go on without it', async () => {
    const runtime = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: await connect() });
    const checkpoints = createCheckpoints(runtime, { dir: tree.outside('store') });
    // Made on the host by a program, by its bytes: `inv\xff.txt`, and a directory `dir\xff` holding a file.
    const raw = (name: string) =>
      Buffer.concat([Buffer.from(`${tree.workDir}/`), Buffer.from(name, 'latin1')]);
    await nodeFs.writeFile(raw('inv\xff.txt'), 'ff\n');
    await nodeFs.mkdir(raw('dir\xff'));
    await nodeFs.writeFile(raw('dir\xff/in.txt'), 'in\n');
    const file = await tree.write('a.txt', 'a1\n');
    expect((await checkpoints.create('1')).files).toEqual([{ path: 'a.txt', change: 'created' }]);
    await nodeFs.writeFile(file, 'a2\n');
    await nodeFs.writeFile(raw('inv\xff.txt'), 'ff changed\n');
    expect((await checkpoints.create('2')).files).toEqual([{ path: 'a.txt', change: 'modified' }]);
    expect(await checkpoints.rewind('1')).toMatchObject({ kind: 'rewound', leftAlone: [] });
    expect(await nodeFs.readFile(file, 'utf8')).toBe('a1\n');
    expect(await nodeFs.readFile(raw('inv\xff.txt'), 'utf8')).toBe('ff changed\n');
    expect(await nodeFs.readFile(raw('dir\xff/in.txt'), 'utf8')).toBe('in\n');
  });
});
