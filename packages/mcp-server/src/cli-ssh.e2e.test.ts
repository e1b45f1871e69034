import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultStoreDirectory } from '@kimi-tools/checkpoints';
import {
  createTempWorkspace,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, startSession, texts, type McpSession } from './__fixtures__/mcp-session.js';
import { SERVED_TOOL_NAMES } from './__fixtures__/served-tools.js';

// One real OpenSSH server on 127.0.0.1 for the file: the "remote" work dir is a directory of this machine reached
// through it, so the test can look at the files the server changed over SFTP.
let server: SshServer;
let workspace: TempWorkspace;
/** A home whose ~/.ssh holds the key the server accepts and the server in known_hosts, as a user's would. */
let home: string;
let session: McpSession;
let destination: string;

beforeAll(async () => {
  server = await startSshServer();
  workspace = await createTempWorkspace();
  await workspace.writeAll({
    'notes.txt': 'alpha\nbeta\ngamma\n',
    'src/util.ts': 'export function helper() {\n  return "needle";\n}\n',
  });
  await workspace.write(workspace.outside('secret.txt'), 'top secret\n');
  home = path.join(workspace.root, 'home');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_ed25519'), server.privateKey, { mode: 0o600 });
  await fs.writeFile(
    path.join(home, '.ssh', 'known_hosts'),
    `[127.0.0.1]:${server.port} ${server.hostKeys[0]!.line}\n`,
  );
  destination = `${server.username}@127.0.0.1:${server.port}`;
  session = await startSession(['--approval', 'yolo', '--ssh', destination, workspace.workDir], undefined, {
    HOME: home,
  });
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
  await workspace?.cleanup();
});

describe('kimi-tools-mcp --ssh user@host:port /remote/path', () => {
  it('serves the file tools and the checkpoint tools over an SSH session, saying where the files are', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(SERVED_TOOL_NAMES);
    expect(session.client.getInstructions()).toContain(
      `The working directory is ${workspace.workDir} on ${destination}, reached over SSH;`,
    );
    // The server logged in with ~/.ssh/id_ed25519 and holds its connection open.
    expect(await server.sessionProcesses()).not.toEqual([]);
  });

  it('reads, writes and searches the remote work dir', async () => {
    const read = await session.call('ReadFile', { path: 'notes.txt' });
    expect(read.isError).toBe(false);
    expect(texts(read)[1]).toBe('     1\talpha\n     2\tbeta\n     3\tgamma\n');

    const written = await session.call('WriteFile', { path: 'out/new.txt', content: 'fresh\n' });
    expect(written.isError).toBe(false);
    expect(await fs.readFile(workspace.at('out/new.txt'), 'utf8')).toBe('fresh\n');

    const grep = await session.call('Grep', { pattern: 'needle', output_mode: 'content', '-n': true });
    expect(grep.isError).toBe(false);
    expect(texts(grep).join('\n')).toContain('src/util.ts:2:  return "needle";');
  });

  it('is confined to the remote path exactly as to a local one', async () => {
    const secret = workspace.outside('secret.txt');
    for (const target of [secret, '../outside/secret.txt']) {
      const read = await session.call('ReadFile', { path: target });
      expect(read.isError).toBe(true);
      expect(texts(read)).toEqual([`ERROR: \`${target}\` is outside the workspace.`]);
    }
    const write = await session.call('WriteFile', { path: workspace.outside('new.txt'), content: 'x' });
    expect(texts(write)[0]).toBe(`ERROR: \`${workspace.outside('new.txt')}\` is outside the workspace.`);
    await expect(fs.stat(workspace.outside('new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes a checkpoint before a batch that writes, and Rewind puts the file back', async () => {
    await session.call('ReadFile', { path: 'notes.txt' });
    const edit = await session.call('StrReplaceFile', {
      path: 'notes.txt',
      edit: { old: 'beta', new: 'BETA' },
    });
    expect(edit.isError).toBe(false);
    expect(await fs.readFile(workspace.at('notes.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');

    const list = texts(await session.call('ListCheckpoints', {})).join('\n');
    // The last checkpoint is the one taken before the edit's batch (the write before it may share its batch).
    const ids = [...list.matchAll(/^Checkpoint (\d+), /gm)].map((match) => match[1]!);
    expect(list).toMatch(/^Checkpoint 1, \S+, "before (WriteFile|StrReplaceFile)": /m);
    const last = ids.at(-1)!;

    const rewind = texts(await session.call('Rewind', { checkpoint: last }));
    expect(rewind[0]).toMatch(new RegExp(`^Rewound to checkpoint ${last}: \\d files? changed\\.`));
    expect(rewind[0]).toContain('\nnotes.txt: modified since the checkpoint, restored\n');
    expect(await fs.readFile(workspace.at('notes.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    // The store is on this machine, in the default state directory (XDG_STATE_HOME), never on the host; keyed by the
    // host too, so that the same path on another host has a store of its own.
    expect(await fs.readdir(path.join(session.stateDir, 'kimi-tools', 'checkpoints'))).toEqual([
      path.basename(
        defaultStoreDirectory(`ssh ${destination}`, await fs.realpath(workspace.workDir), {
          XDG_STATE_HOME: session.stateDir,
        }),
      ),
    ]);
    expect(session.stderr()).toBe('');
  });
});

describe('kimi-tools-mcp --ssh: the login', () => {
  /** Runs the server with `args` and `HOME` a home without keys or known hosts, its stdin closed at once. */
  function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_PATH, ...args], {
        env: { PATH: process.env['PATH'], HOME: workspace.outsideDir },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end();
    });
  }

  it('takes --identity and --host-key instead of ~/.ssh', async () => {
    const key = path.join(workspace.root, 'deploy_key');
    await fs.writeFile(key, server.privateKey, { mode: 0o600 });
    const other = await startSession(
      [
        '--ssh',
        destination,
        '--identity',
        key,
        '--host-key',
        server.hostKeys[0]!.fingerprint,
        '--no-checkpoints',
        workspace.workDir,
      ],
      undefined,
      { HOME: workspace.outsideDir },
    );
    try {
      const read = await other.call('ReadFile', { path: 'src/util.ts' });
      expect(texts(read)[1]).toContain('return "needle";');
      const { tools } = await other.client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('Rewind');
    } finally {
      await other.close();
    }
  });

  it('ends when the client closes its stdin: the SSH connection is closed too, or the process would stay', async () => {
    const key = path.join(workspace.root, 'deploy_key');
    await fs.writeFile(key, server.privateKey, { mode: 0o600 });
    const fingerprint = server.hostKeys[0]!.fingerprint;
    const run = await runCli([
      '--ssh',
      destination,
      '--identity',
      key,
      '--host-key',
      fingerprint,
      workspace.workDir,
    ]);
    expect(run).toEqual({ code: 0, stderr: '' });
  });

  it('exits 2, saying why, when the host key is unknown or the remote path is missing', async () => {
    const key = path.join(workspace.root, 'deploy_key');
    const unknown = await runCli(['--ssh', destination, '--identity', key, workspace.workDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      new RegExp(
        `^kimi-tools-mcp: cannot serve ${workspace.workDir} on ${destination}: ERR_SSH_HOST_KEY_UNKNOWN: the host key of 127\\.0\\.0\\.1:${server.port} \\(ssh-ed25519 SHA256:`,
      ),
    );
    const missing = path.join(workspace.root, 'missing');
    const fingerprint = server.hostKeys[0]!.fingerprint;
    const gone = await runCli(['--ssh', destination, '--identity', key, '--host-key', fingerprint, missing]);
    expect(gone).toEqual({
      code: 2,
      stderr:
        `kimi-tools-mcp: cannot serve ${missing} on ${destination}: ENOENT: no such file or directory, scandir '${missing}'\n` +
        'Run kimi-tools-mcp --help for usage.\n',
    });
  });
});
