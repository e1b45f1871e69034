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
    let names: string[] = [];
    for (let attempt = 0; attempt < 200; attempt++) {
      const before = requests.length;
      names = (await fs.readdir(tree.workDir)).map((entry) => entry.name).sort();
      if (!requests.slice(before).includes('opendir')) break;
      await new Promise((go) => setTimeout(go, 50));
    }
    expect(names).toEqual(['inv\udcfe.txt', 'inv\udcff.txt', 'inv\ufffd.txt']);
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
