import { promises as nodeFs } from 'node:fs';
import type { ExecProcess, FileSystem } from '@kimi-tools/core/fs';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

const ssh = useSshServer();
let tree: TempWorkspace;
let fs: FileSystem;
beforeAll(async () => {
  tree = await createTempWorkspace();
  fs = await ssh.connect(tree.workDir);
});
afterAll(() => tree.cleanup());

/** Everything a stream gives until it ends. */
async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Runs a program to its end: its output and how it ended. */
async function runToEnd(process: ExecProcess) {
  const [stdout, stderr, exit] = await Promise.all([
    collect(process.stdout),
    collect(process.stderr),
    process.exit,
  ]);
  return { stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8'), ...exit };
}

/** The ids of the processes on this machine (where the server runs) whose command line is exactly `argv`. */
async function processesRunning(...argv: string[]): Promise<number[]> {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const entry of await nodeFs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await nodeFs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline === wanted) found.push(Number(entry));
  }
  return found;
}

/** Resolves once `text` appeared on the stream (which keeps flowing). */
function appears(stream: NodeJS.ReadableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) resolve();
    });
  });
}

describe('exec', () => {
  test('hands every argument to the program exactly, whatever the remote shell would make of it', async () => {
    const args = [
      '',
      'a  b',
      "it's",
      '"double"',
      '$HOME',
      '`id`',
      '$(id)',
      '*',
      '\\',
      'line\nbreak',
      '; exit 7',
      '-n',
    ];
    const result = await runToEnd(fs.exec!('printf', ['%s\\0', ...args]));
    expect(result.code).toBe(0);
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(args);
  });

  test('runs in a working directory whose name needs quoting, with variables set and removed', async () => {
    const dir = await tree.mkdir("it's a $dir");
    const script = 'pwd; printf "%s|" "$GREETING" "${HOME-removed}"';
    const result = await runToEnd(
      fs.exec!('sh', ['-c', script], { cwd: dir, env: { GREETING: "hello 'world'\n$x", HOME: undefined } }),
    );
    expect(result).toMatchObject({ code: 0, stdout: `${dir}\nhello 'world'\n$x|removed|` });
  });

  test('refuses a variable name the shell cannot set, without running anything', async () => {
    const process = fs.exec!('sh', ['-c', 'echo ran'], { env: { 'A=B': 'x' } });
    await expect(process.exit).rejects.toMatchObject({
      code: 'EINVAL',
      message: `EINVAL: "A=B" cannot be an environment variable, spawn 'sh'`,
    });
    expect((await collect(process.stdout)).length).toBe(0);
  });

  test('a working directory that does not exist settles exit with ENOENT', async () => {
    const process = fs.exec!('pwd', [], { cwd: tree.at('missing') });
    await expect(process.exit).rejects.toMatchObject({
      code: 'ENOENT',
      message: "ENOENT: no such working directory on the host, spawn 'pwd'",
    });
  });

  test("without stdin 'pipe', standard input is /dev/null, as a local program's (ripgrep then searches its folder)", async () => {
    const probe = 'if [ -c /dev/stdin ]; then echo device; else echo other; fi';
    expect((await runToEnd(fs.exec!('sh', ['-c', probe]))).stdout).toBe('device\n');
    const piped = fs.exec!('sh', ['-c', probe], { stdin: 'pipe' });
    piped.stdin!.end();
    expect((await runToEnd(piped)).stdout).toBe('other\n');
  });

  test("gives the program's process id on the host once it started (Grep reads its ripgrep's /proc)", async () => {
    const process = fs.exec!('sh', ['-c', 'echo $$']);
    expect(process.pid).toBeUndefined();
    const result = await runToEnd(process);
    expect(process.pid).toBe(Number(result.stdout.trim()));
  });

  test('reports a signal that ended the program by its name', async () => {
    expect(await runToEnd(fs.exec!('sh', ['-c', 'kill -TERM $$']))).toMatchObject({
      code: null,
      signal: 'SIGTERM',
    });
  });

  test('kill ends the program and every process it started, though the server refuses signal requests', async () => {
    // The tests log in as root, to whom OpenSSH refuses the `signal` request: the kill goes to the process group.
    const process = fs.exec!('sh', ['-c', 'sleep 1001 & echo started; sleep 1002']);
    await appears(process.stdout, 'started');
    await expect.poll(() => processesRunning('sleep', '1001')).toHaveLength(1);
    process.kill();
    process.kill();
    expect(await process.exit).toEqual({ code: null, signal: 'SIGKILL' });
    await expect.poll(() => processesRunning('sleep', '1001')).toEqual([]);
    expect(await processesRunning('sleep', '1002')).toEqual([]);
    process.kill();
  });

  test('kill right after exec, before the program started, still leaves nothing running', async () => {
    const process = fs.exec!('sleep', ['1003']);
    process.kill();
    expect(await process.exit).toEqual({ code: null, signal: 'SIGKILL' });
    await expect.poll(() => processesRunning('sleep', '1003')).toEqual([]);
  });

  test('more programs at once than the server allows channels (MaxSessions: 10) wait for one to end', async () => {
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, index) =>
        runToEnd(fs.exec!('sh', ['-c', 'sleep 0.5; echo "$1"', 'sh', `${index}`])),
      ),
    );
    expect(results.map((result) => [result.code, result.stdout])).toEqual(
      Array.from({ length: 14 }, (_, index) => [0, `${index}\n`]),
    );
  });

  test('a connection dropped while the program runs settles exit with ECONNRESET, and the next exec reconnects', async () => {
    const process = fs.exec!('sh', ['-c', 'echo started; sleep 1004']);
    await appears(process.stdout, 'started');
    await ssh.server.dropConnections();
    await expect(process.exit).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringMatching(
        /^ECONNRESET: the SSH connection to \S+ was lost \(.*\); the next call reconnects/,
      ),
    });
    expect(await runToEnd(fs.exec!('echo', ['back']))).toMatchObject({ code: 0, stdout: 'back\n' });
  });
});
