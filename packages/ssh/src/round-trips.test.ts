import { promises as nodeFs } from 'node:fs';
import path from 'node:path';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { realPathAllowMissing, stampOf } from '@kimi-tools/core/toolkit';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import { countedConnection } from './__fixtures__/request-levels.js';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import type { SshFileSystem } from './ssh-file-system.js';

// What the tools cost over SFTP, where every request is a round trip to the host (issue 30's goals: ReadFile of a
// small file in few requests; an edit without a request per path component).
const ssh = useSshServer();
let tree: TempWorkspace;
let fs: SshFileSystem;
/** The requests sent, grouped by the synchronous turn that sent them: one group is one round trip. */
let groups: string[][];
beforeEach(async () => {
  tree = await createTempWorkspace();
  groups = [];
  let group: string[] | undefined;
  fs = await ssh.connect(tree.workDir, {
    onRequest: (request) => {
      if (!group) {
        group = [];
        groups.push(group);
        queueMicrotask(() => (group = undefined));
      }
      group.push(request);
    },
  });
  groups.length = 0;
});
afterEach(async () => {
  await fs.close();
  await tree.cleanup();
});

describe('core’s path resolution over SSH', () => {
  test('gives the answers it gives on the local disk, whatever the path holds', async () => {
    await tree.write('d/f.txt', 'x');
    await tree.symlink('link', tree.at('d'));
    await tree.symlink('dangling', tree.at('d/later.txt'));
    await tree.symlink('deep-dangling', tree.at('gone/away/x.txt'));
    await tree.symlink('loop-a', tree.at('loop-b'));
    await tree.symlink('loop-b', tree.at('loop-a'));
    await tree.symlink('out', tree.outside('.'));
    const shapes = [
      'd/f.txt',
      'd/new.txt',
      'd/new/deeper/x.txt',
      'link/f.txt',
      'link/new.txt',
      'link/new/x.txt',
      'dangling',
      'deep-dangling',
      'loop-a',
      'loop-a/x.txt',
      'd/f.txt/inside',
      'out/secret.txt',
      'missing/x.txt',
      '',
    ];
    for (const shape of shapes) {
      const absolute = path.join(tree.workDir, shape);
      expect([shape, await realPathAllowMissing(fs, absolute)]).toEqual([
        shape,
        await realPathAllowMissing(localFileSystem, absolute),
      ]);
    }
  });

  test('resolves an existing file and a new one beside it in one round trip each, a stat of the path sent along', async () => {
    await tree.write('d/f.txt', 'x');
    await tree.symlink('link', tree.at('d'));
    expect(await realPathAllowMissing(fs, tree.at('link/f.txt'))).toBe(tree.at('d/f.txt'));
    expect(await realPathAllowMissing(fs, tree.at('link/new.txt'))).toBe(tree.at('d/new.txt'));
    // The stat is for an open that follows at once (ReadFile's): its own stat is then already answered.
    expect(groups).toEqual([
      ['realpath', 'stat'],
      ['realpath', 'stat'],
    ]);
  });
});

describe('the tools’ SFTP requests', () => {
  test('ReadFile of a small file: its path with its stat, then open, and the whole content, whose end confirms the stat', async () => {
    await tree.write('small.ts', 'export const answer = 42;\n'.repeat(100));
    const tool = new ReadFile(createRuntime({ workDir: fs.root, approval: yoloApproval(), fs }), {});
    const message =
      '100 lines read from file starting from line 1. Total lines in file: 100. End of file reached.';
    expect((await tool.call({ path: 'small.ts' })).message).toBe(message);
    // The runtime's first call resolves the workspace root with the file (the file's stat is asked again when what
    // the tool loads on first use let the event loop turn before the open).
    expect(groups[0]).toEqual(['realpath', 'stat', 'realpath', 'stat']);
    expect(groups.slice(-3)).toEqual([['open'], ['read'], ['close']]);
    groups.length = 0;
    // Later calls keep the root's real path: the file's is the only one asked for. The stat sent with it keeps a FIFO
    // from being opened on the server, and the read ending at its size makes an fstat needless.
    expect((await tool.call({ path: 'small.ts' })).message).toBe(message);
    expect(groups).toEqual([['realpath', 'stat'], ['open'], ['read'], ['close']]);
  });

  test('StrReplaceFile of 1 MiB: two reads and one write of the file, its lock read twice, one lstat, 15 waits', async () => {
    const line = 'abcdefghijklmnopqrstuvwxyz0123456789 the quick brown fox jumps over\n';
    const half = line.repeat(Math.ceil((512 * 1024) / line.length));
    const file = await tree.write('big.txt', `${half}MARKER\n${half}`);
    // Through a slow link, so that the answers of two round trips are never read together (RequestLevels).
    const answers: string[] = [];
    const { fs, levels, close } = await countedConnection(ssh, tree.workDir, undefined, {
      onAnswer: (request) => answers.push(request),
    });
    onTestFinished(close);
    const runtime = createRuntime({ workDir: fs.root, approval: yoloApproval(), fs });
    const stamp = await stampOf(fs, file);
    if (typeof stamp === 'string') throw new Error(`${file} is ${stamp}`);
    runtime.fileState.recordRead(file, stamp, true);
    const tool = new StrReplaceFile(runtime, {});
    // A call as the runtime's calls go once it started: the workspace resolved, what the tool loads on use loaded.
    const edit = (from: string, to: string) => tool.call({ path: 'big.txt', edit: { old: from, new: to } });
    await edit('MARKER', 'CHANGED');
    // Its lock's release answered, and the handle of the grave's directory its rename opened closed, so that nothing
    // of that call is counted here.
    await fs.stat(file);
    await new Promise((go) => setImmediate(go));
    await fs.stat(file);
    levels.reset();
    answers.length = 0;
    const result = await edit('CHANGED', 'MARKER');
    // Requests of one trip went out in an order that is the event loop's (two chains side by side, closes sent when
    // their handles are done with): each trip is compared sorted.
    const sorted = (trips: string[][]) => trips.map((trip) => [...trip].sort());
    const waited = sorted(levels.trips({ answered: true }));
    const sent = sorted(levels.trips());
    const requests = levels.trips().flat();
    // The lock's release is sent, not waited for: the call is back before its answers, and what is asked next finds
    // the lock gone (a listing by a program on the host starts once the release is answered). The lock goes through
    // its grave: renamed into it (the backend opens the directory a rename lands in, for a sync that never comes
    // here), then removed with it.
    expect([sent.at(-1), answers.includes('remove')]).toEqual([
      ['close', 'close', 'open', 'posix-rename@openssh.com', 'remove', 'rmdir'],
      false,
    ]);
    expect((await fs.readdir(tree.workDir)).map((entry) => entry.name)).toEqual(['big.txt']);
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await nodeFs.readFile(file, 'utf8')).toBe(`${half}MARKER\n${half}`);
    const count = (name: string) => requests.filter((request) => request === name).length;
    // OpenSSH serves 261,120 bytes a request: the file is 5 reads (read before the edit, and again under the lock,
    // where SFTP's whole-second times cannot tell it unchanged) and 5 writes; the lock file is read when the write
    // commits and when it is released, in one read each.
    expect(count('read')).toBe(5 + 5 + 2);
    expect(count('write')).toBe(5 + 1);
    // The grave's directory is opened with the rename into it, as every rename's directory is.
    expect(count('open')).toBe(2 + 1 + 1 + 2 + 1 + 1);
    expect(count('lstat')).toBe(1);
    // The path resolved for the call, under the lock, and again right before the commit (a directory swapped for a
    // link meanwhile), each with a stat; the lock's directory once.
    expect(count('realpath')).toBe(1 + 1 + 1 + 1);
    // The temp file's mode and owner, in one request.
    expect(count('fsetstat')).toBe(1);
    // No fstat: each of the four reads (the file twice, the lock twice) ends at the size its stat gave. Each path
    // resolved gets a stat along (the re-read under the lock opens on its own; the lock's creation needs none).
    expect(count('fstat')).toBe(0);
    expect(count('stat')).toBe(7);
    expect(requests.length).toBe(53);
    // What the call waited for, one answer after another. Sent without waiting: the lock's content with its close, and
    // the look under the lock with them (the lock is held once its file is created; the commit waits for its content);
    // the lstat of where the write lands with the look's open; the temp file's mode, content and fsync at once, and the
    // look at the lock before the commit with them, with the path resolved again (the server reads and resolves them
    // after the flush; the temp file's close, after the fsync, is not waited for); the directory's open with the
    // rename, and the look at the lock that lets it go with them (the server reads it after the rename), the lock's
    // grave made beside it; then, side by side, the directory's fsync with the stat of the file written, and the lock's
    // open, then its read. The lock's rename into its grave and their removal, once the read finds it still this
    // call's, are the last requests, and not waited for.
    const reads = Array<string>(5).fill('read');
    expect(waited).toEqual(
      sorted([
        ['realpath', 'stat'],
        ['open'],
        reads,
        ['realpath', 'stat'],
        ['open'],
        ['close', 'write', 'realpath', 'stat'],
        ['lstat', 'open'],
        reads,
        ['close', 'open'],
        ['fsetstat', ...Array<string>(5).fill('write'), 'fsync@openssh.com', 'stat', 'realpath', 'stat'],
        ['close', 'open'],
        ['read'],
        ['close', 'posix-rename@openssh.com', 'open', 'stat', 'mkdir'],
        ['fsync@openssh.com', 'stat', 'open'],
        ['close', 'read'],
      ]),
    );
  });
});
