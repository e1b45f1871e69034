import { execFileSync } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import type { DirEntry } from '@kimi-tools/core/fs';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import type { SshFileSystem } from './ssh-file-system.js';

// Directories listed through the host's Python, kept running with the connection: the same entries and errors as
// SFTP's opendir/readdir give, in a few messages for a whole walk instead of three requests a directory.
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

/** Lists `directory` until the host's program answers (no `opendir` went out): it starts at the first listing. */
async function untilListedOnHost(backend: SshFileSystem, directory: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const before = requests.length;
    await backend.readdir(directory);
    if (!requests.slice(before).includes('opendir')) return;
    await new Promise((go) => setTimeout(go, 50));
  }
  throw new Error('the listing program never answered');
}

/** Each entry as `name type`, sorted. */
function shapes(entries: readonly DirEntry[]): string[] {
  const type = (entry: DirEntry) =>
    (
      [
        ['file', entry.isFile()],
        ['directory', entry.isDirectory()],
        ['link', entry.isSymbolicLink()],
        ['fifo', entry.isFIFO()],
        ['socket', entry.isSocket()],
        ['character device', entry.isCharacterDevice()],
        ['block device', entry.isBlockDevice()],
      ] as const
    )
      .filter(([, is]) => is)
      .map(([name]) => name)
      .join('+');
  return entries.map((entry) => `${JSON.stringify(entry.name)} ${type(entry)}`).sort();
}

/** The processes below the server whose command line holds `text`. */
async function processesRunning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await ssh.server.sessionProcesses()) {
    const command = await nodeFs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(text)) found.push(pid);
  }
  return found;
}

describe('listing directories on the host', () => {
  test('gives what SFTP gives: every kind of entry, odd names, and the errors', async () => {
    await tree.write('d/file.txt', 'x');
    await tree.mkdir('d/sub');
    await tree.symlink('d/to-file', tree.at('d/file.txt'));
    await tree.symlink('d/to-dir', tree.at('d/sub'));
    await tree.symlink('d/dangling', tree.at('d/missing'));
    await tree.symlink('d/loop', tree.at('d/loop'));
    await tree.write('d/line\nbreak', 'x');
    await tree.write('d/ünïcödé €', 'x');
    await tree.mkdir('empty');
    execFileSync('mkfifo', [tree.at('d/fifo')]);
    // A name that is not UTF-8 (byte 0xff): the host's program lists it by its bytes, as `latin-\udcff`; ssh2
    // decodes the names SFTP gives as UTF-8, so over SFTP it can only read `latin-\uFFFD`
    // (docs/paths.md#names-that-are-not-utf-8).
    await nodeFs.writeFile(Buffer.from(`${tree.at('d')}/latin-\xff`, 'latin1'), 'x');
    const asTheHostLists = (outcome: ReadonlyArray<string | undefined>) =>
      outcome.map((line) => line?.replace(JSON.stringify('latin-\ufffd'), JSON.stringify('latin-\udcff')));
    const sftpOnly = await ssh.connect(tree.workDir, { python: null });
    await untilListedOnHost(fs, tree.at('empty'));
    requests.length = 0;
    const cases = ['d', 'empty', 'd/to-dir', 'd/file.txt', 'd/missing', 'd/loop', 'd/dangling', 'd/fifo'];
    for (const relative of cases) {
      const directory = tree.at(relative);
      const outcome = (backend: SshFileSystem) =>
        backend
          .readdir(directory)
          .then(shapes, (error: NodeJS.ErrnoException) => [error.code, error.message]);
      expect(await outcome(fs), relative).toEqual(asTheHostLists(await outcome(sftpOnly)));
    }
    // None of them over SFTP.
    expect(requests).toEqual([]);
  });

  test('lists a whole tree, many directories at once, without an SFTP request', async () => {
    for (let index = 0; index < 60; index++) await tree.write(`tree/${index % 6}/${index}/file.ts`, 'x');
    /** Every path under `root`, level by level, each level's directories listed at once. */
    const walk = async (backend: SshFileSystem, root: string) => {
      const found: string[] = [];
      for (let level = [root]; level.length > 0;) {
        const listed = await Promise.all(
          level.map(async (dir) => [dir, await backend.readdir(dir)] as const),
        );
        level = [];
        for (const [dir, entries] of listed) {
          for (const entry of entries) {
            found.push(`${dir}/${entry.name}`);
            if (entry.isDirectory()) level.push(`${dir}/${entry.name}`);
          }
        }
      }
      return found.sort();
    };
    const sftpOnly = await ssh.connect(tree.workDir, { python: null });
    await untilListedOnHost(fs, tree.at('tree'));
    requests.length = 0;
    const walked = await walk(fs, tree.at('tree'));
    expect(walked).toHaveLength(6 + 60 + 60);
    expect(walked).toEqual(await walk(sftpOnly, tree.at('tree')));
    expect(requests).toEqual([]);
  });
});

describe('when the listing program cannot answer', () => {
  test('without Python on the host, listings go over SFTP', async () => {
    await tree.write('d/file.txt', 'x');
    const without = await ssh.connect(tree.workDir, {
      python: '/nonexistent/python3',
      onRequest: (name) => requests.push(name),
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      requests.length = 0;
      expect(shapes(await without.readdir(tree.at('d')))).toEqual(['"file.txt" file']);
      expect(requests).toContain('opendir');
      await new Promise((go) => setTimeout(go, 200));
    }
  });

  test('one that ended on its own hands what it was asked to SFTP; a dropped connection fails it', async () => {
    await tree.write('d/file.txt', 'x');
    await untilListedOnHost(fs, tree.at('d'));
    const [program] = await processesRunning('os.scandir');
    expect(program).toBeDefined();
    process.kill(program!, 'SIGSTOP');
    const listing = fs.readdir(tree.at('d'));
    await new Promise((go) => setTimeout(go, 100));
    process.kill(program!, 'SIGKILL');
    expect(shapes(await listing)).toEqual(['"file.txt" file']);

    await untilListedOnHost(fs, tree.at('d'));
    const [again] = await processesRunning('os.scandir');
    process.kill(again!, 'SIGSTOP');
    const lost = fs.readdir(tree.at('d'));
    await new Promise((go) => setTimeout(go, 100));
    await ssh.server.dropConnections();
    await expect(lost).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringMatching(
        /^ECONNRESET: the SSH connection to .* was lost \(.*\); the next call reconnects, scandir '/,
      ),
    });
  });
});
