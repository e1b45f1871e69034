import { promises as nodeFs } from 'node:fs';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import type { SshFileSystem } from './ssh-file-system.js';

// docs/paths.md#names-that-are-not-utf-8 over SSH: ssh2 writes every SFTP path as UTF-8, so `inv\udcff.txt` would go
// as `inv\uFFFD.txt` and reach that other file. The host's listing program sends names as bytes, so a listing tells
// the three files apart; SFTP refuses a path it cannot carry.
const ssh = useSshServer();
let tree: TempWorkspace;
let fs: SshFileSystem;
let requests: string[];
beforeEach(async () => {
  tree = await createTempWorkspace();
  requests = [];
  fs = await ssh.connect(tree.workDir, { onRequest: (name) => requests.push(name) });
});
afterEach(async () => {
  await fs.close();
  await tree.cleanup();
});

const raw = (name: string) => Buffer.concat([Buffer.from(`${tree.workDir}/`), Buffer.from(name, 'latin1')]);

describe('names that are not UTF-8 over SSH', () => {
  test('the host lists each by its own bytes, never as U+FFFD', async () => {
    await nodeFs.writeFile(raw('inv\xff.txt'), 'ff');
    await nodeFs.writeFile(raw('inv\xfe.txt'), 'fe');
    await nodeFs.writeFile(raw('inv\xef\xbf\xbd.txt'), 'replacement character');
    // The first listing: SFTP's names hold U+FFFD, so the host's program is waited for.
    const names = (await fs.readdir(tree.workDir)).map((entry) => entry.name).sort();
    expect(names).toEqual(['inv\udcfe.txt', 'inv\udcff.txt', 'inv\ufffd.txt']);
  });

  test('a directory so named is listed by the host, from the first listing', async () => {
    await nodeFs.mkdir(raw('dir\xff'));
    await nodeFs.writeFile(Buffer.concat([raw('dir\xff'), Buffer.from('/inner.txt')]), 'x');
    expect((await fs.readdir(`${tree.workDir}/dir\udcff`)).map((entry) => entry.name)).toEqual(['inner.txt']);
    // The program takes any path past ASCII: it once ended at one (its input was not the ASCII it reads), and every
    // listing went over SFTP until it was started again.
    await nodeFs.mkdir(`${tree.workDir}/ünï`);
    requests.length = 0;
    expect(await fs.readdir(`${tree.workDir}/ünï`)).toEqual([]);
    expect((await fs.readdir(`${tree.workDir}/dir\udcff`)).map((entry) => entry.name)).toEqual(['inner.txt']);
    expect(requests).toEqual([]);
  });

  test('without Python on the host, SFTP can only list such names as U+FFFD', async () => {
    await nodeFs.writeFile(raw('inv\xff.txt'), 'ff');
    await nodeFs.writeFile(raw('inv\xef\xbf\xbd.txt'), 'replacement character');
    const sftpOnly = await ssh.connect(tree.workDir, { python: null });
    try {
      expect((await sftpOnly.readdir(tree.workDir)).map((entry) => entry.name)).toEqual([
        'inv\ufffd.txt',
        'inv\ufffd.txt',
      ]);
    } finally {
      await sftpOnly.close();
    }
  });

  test('SFTP refuses such a path rather than reach the U+FFFD file', async () => {
    await nodeFs.writeFile(raw('inv\xef\xbf\xbd.txt'), 'replacement character');
    const file = `${tree.workDir}/inv\udcff.txt`;
    await expect(fs.stat(file)).rejects.toMatchObject({
      code: 'EINVAL',
      message: `EINVAL: a name that is not UTF-8 cannot be sent over SFTP, stat '${file}'`,
    });
    await expect(fs.create(`${tree.workDir}/new\udcff.txt`)).rejects.toMatchObject({ code: 'EINVAL' });
    expect(await nodeFs.readdir(tree.workDir)).toEqual(['inv\ufffd.txt']);
  });
});
