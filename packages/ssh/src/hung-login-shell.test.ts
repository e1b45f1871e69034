import { promises as nodeFs } from 'node:fs';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

// A host whose login shell hangs for programs while its SFTP server, started earlier, serves files (a start-up file
// waiting on a lock, as pyenv's rehash lock did on this CI's image): what the backend runs there for itself must not
// be waited for without end.
const ssh = useSshServer({ execStartup: 'sleep 1010' });
let tree: TempWorkspace;
beforeAll(async () => {
  tree = await createTempWorkspace();
});
afterAll(async () => {
  await tree?.cleanup();
});

/** The login shells on the host still reading their start-up files. */
async function hungShells(): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await ssh.server.sessionProcesses()) {
    const command = await nodeFs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.includes('exec-startup')) found.push(pid);
  }
  return found;
}

test('ReadFile of a file scanned on the host reads it over SFTP once the scan did not start in time, then starts no other meanwhile', async () => {
  const fs = await ssh.connect(tree.workDir, { hostScanMinBytes: 0, connectTimeoutMs: 500 });
  await tree.write('big.log', 'one\ntwo\n');
  const read = () =>
    new ReadFile(createRuntime({ workDir: fs.root, approval: yoloApproval(), fs })).call({ path: 'big.log' });
  const expected = {
    isError: false,
    output: '     1\tone\n     2\ttwo\n',
    message: '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
  };
  expect(await read()).toMatchObject(expected);
  const waiting = await hungShells();
  expect(waiting).toHaveLength(1);
  // The scan that hangs is still the one: the next read does not start (nor wait for) another.
  expect(await read()).toMatchObject(expected);
  expect(await hungShells()).toEqual(waiting);
  await fs.close();
});

test('directories are listed over SFTP while the listing program’s start hangs', async () => {
  const fs = await ssh.connect(tree.workDir, { connectTimeoutMs: 500 });
  await tree.write('listed/a.txt', 'a');
  await tree.mkdir('listed/sub');
  for (let round = 0; round < 2; round++) {
    const entries = await fs.readdir(tree.at('listed'));
    expect(entries.map((entry) => `${entry.name} ${entry.isDirectory()}`).sort()).toEqual([
      'a.txt false',
      'sub true',
    ]);
  }
  await fs.close();
});
