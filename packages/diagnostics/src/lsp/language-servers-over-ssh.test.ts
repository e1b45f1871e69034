import { promises as nodeFs } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRuntime, type ToolRuntime } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { sshFileSystem, type SshFileSystem } from '@kimi-tools/ssh';
import { StrReplaceFile } from '@kimi-tools/replace';
import {
  createTempWorkspace,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDiagnostics } from '../add-diagnostics.js';
import {
  pyrightLanguageServer,
  serverCommand,
  typescriptLanguageServer,
  type LanguageServerConfig,
} from './server-config.js';

// Diagnostics over a real OpenSSH server on 127.0.0.1: the servers run on the host, through the file system's
// `exec`. The host is this machine, so the programs the tests configure are there, and its processes can be seen in
// /proc: a server started over SSH is one of the processes the SSH server runs for its sessions.

const RECORDING_SERVER = fileURLToPath(
  new URL('./__fixtures__/recording-language-server.mjs', import.meta.url),
);
/** typescript-language-server as this package installs it: an absolute path on the host, given as `remoteCommand`. */
const TYPESCRIPT_SERVER_ON_HOST = fileURLToPath(
  new URL('../../node_modules/.bin/typescript-language-server', import.meta.url),
);

/** Whether a process runs (Linux's /proc): it is there, and not a zombie that no one has reaped yet. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await nodeFs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
}

/** The processes whose command line contains `text`. */
async function processesWith(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await nodeFs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await nodeFs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(entry));
  }
  return found;
}

/** Waits until none of `pids` runs any more (a process ends in its own time), for at most `limitMs`. */
async function gone(pids: readonly number[], limitMs = 20_000): Promise<number[]> {
  const until = performance.now() + limitMs;
  for (;;) {
    const left: number[] = [];
    for (const pid of pids) if (await isRunning(pid)) left.push(pid);
    if (left.length === 0 || performance.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface StartRecord {
  pid: number;
  cwd: string;
  processId: number | null;
  rootUri: string;
}

/** The starts the recording server wrote into `file`. */
async function starts(file: string): Promise<StartRecord[]> {
  const text = await nodeFs.readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as StartRecord);
}

/** The recording server for `.txt` files: `node` as the host's `PATH` finds it. */
function recordingServer(record: string): LanguageServerConfig {
  return {
    name: 'recorder',
    command: 'node',
    args: [RECORDING_SERVER, record],
    languages: { '.txt': 'plaintext' },
  };
}

describe('language servers over SSH', () => {
  let server: SshServer;
  let workspace: TempWorkspace;
  let fs: SshFileSystem;

  /** A runtime on the workspace over SSH, with diagnostics; closed by the test that makes it. */
  function sshRuntime(servers: LanguageServerConfig[], serverBudgetMs = 60_000): ToolRuntime {
    const runtime = createRuntime({ workDir: workspace.workDir, fs, approval: workspace.approval });
    addDiagnostics(runtime, { servers, serverBudgetMs });
    return runtime;
  }

  beforeAll(async () => {
    server = await startSshServer();
    workspace = await createTempWorkspace({ backend: 'local' });
    fs = await sshFileSystem({
      host: server.host,
      port: server.port,
      username: server.username,
      privateKey: server.privateKey,
      hostKey: server.hostKeys[0]!.line,
      root: workspace.root,
    });
  });
  afterAll(async () => {
    await fs?.close();
    await server?.stop();
    await workspace?.cleanup();
  });

  it('typescript-language-server runs on the host, reports the type error the edit introduced, and ends with close()', async () => {
    // One tsserver instead of two (no syntax server) and no DOM library: a third of the CPU of the defaults, for a
    // check that needs neither (the local tests run the defaults).
    const light = { tsserver: { useSyntaxServer: 'never' } };
    await workspace.write('tsconfig.json', '{ "compilerOptions": { "lib": ["es5"], "types": [] } }\n');
    const runtime = sshRuntime([
      {
        ...typescriptLanguageServer({ remoteCommand: TYPESCRIPT_SERVER_ON_HOST }),
        initializationOptions: light,
      },
    ]);
    await workspace.write('src/a.ts', 'export const n: number = 1;\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'src/a.ts',
      edit: { old: '= 1', new: "= 'x'" },
    });
    expect(result.message.split('\n').slice(2)).toEqual([
      'Diagnostics: new problems, this change introduced 1 problem.',
      "src/a.ts:1:14 error Type 'string' is not assignable to type 'number'.",
    ]);
    expect(result.extras?.diagnostics).toMatchObject({ checker: 'typescript-language-server' });
    // The server is one the SSH server runs for its session, in the work directory on the host.
    const servers = await processesWith('typescript-language-server/lib/cli.mjs');
    const sessions = await server.sessionProcesses();
    const onHost = servers.filter((pid) => sessions.includes(pid));
    expect(onHost).toHaveLength(1);
    expect(await nodeFs.readlink(`/proc/${onHost[0]}/cwd`)).toBe(workspace.workDir);
    await runtime.close();
    expect(await gone(onHost)).toEqual([]);
    // The server's start on a loaded machine takes seconds: as the warm-up of the local servers' tests allows.
  }, 120_000);

  it("a server found on the host's PATH runs there, told no process id; on the local disk it is told this process's", async () => {
    const clean = 'Diagnostics: clean, this change introduced no problems.';
    const remoteRecord = workspace.outside('remote-starts.jsonl');
    const remote = sshRuntime([recordingServer(remoteRecord)]);
    const overSsh = await new WriteFile(remote).call({ path: 'remote.txt', content: 'one\n' });
    expect(overSsh.message.split('\n\n').at(-1)).toBe(clean);
    const [started] = await starts(remoteRecord);
    expect(started).toEqual({
      pid: expect.any(Number),
      cwd: workspace.workDir,
      processId: null,
      rootUri: pathToFileURL(workspace.workDir).href,
    });
    expect(await server.sessionProcesses()).toContain(started!.pid);
    await remote.close();

    const localRecord = workspace.outside('local-starts.jsonl');
    const local = createRuntime({
      workDir: workspace.workDir,
      fs: localFileSystem,
      approval: workspace.approval,
    });
    addDiagnostics(local, { servers: [recordingServer(localRecord)], serverBudgetMs: 60_000 });
    const onDisk = await new WriteFile(local).call({ path: 'local.txt', content: 'one\n' });
    expect(onDisk.message.split('\n\n').at(-1)).toBe(clean);
    expect((await starts(localRecord)).map((entry) => entry.processId)).toEqual([process.pid]);
    await local.close();
  });

  it('after a dropped connection the next change starts the server on the host again', async () => {
    const record = workspace.outside('starts.jsonl');
    const runtime = sshRuntime([recordingServer(record)]);
    const write = new WriteFile(runtime);
    const clean = 'Diagnostics: clean, this change introduced no problems.';
    expect((await write.call({ path: 'notes.txt', content: 'one\n' })).message.split('\n\n').at(-1)).toBe(
      clean,
    );
    const [first] = await starts(record);
    // The connection drops, as when the host crashes: its sessions and their programs end.
    await server.dropConnections();
    expect(await gone([first!.pid])).toEqual([]);
    expect((await write.call({ path: 'notes.txt', content: 'two\n' })).message.split('\n\n').at(-1)).toBe(
      clean,
    );
    const [, second] = await starts(record);
    expect(await server.sessionProcesses()).toContain(second!.pid);
    await runtime.close();
  });

  it('a server whose program is not on the host is reported as failed, and the write stands', async () => {
    const runtime = sshRuntime([
      typescriptLanguageServer({ remoteCommand: 'kimi-tools-no-such-language-server' }),
    ]);
    const result = await new WriteFile(runtime).call({
      path: 'missing.ts',
      content: 'export const a = 1;\n',
    });
    expect(result.isError).toBe(false);
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: no checker, the checker failed: language server typescript-language-server stopped and was restarted once',
    );
    expect(await workspace.read('missing.ts')).toBe('export const a = 1;\n');
    await runtime.close();
  });

  it("the shipped servers run on another host as the programs their packages install, found on the host's PATH", () => {
    expect(serverCommand(typescriptLanguageServer(), fs)).toEqual({
      command: 'typescript-language-server',
      args: ['--stdio'],
    });
    expect(serverCommand(pyrightLanguageServer(), fs)).toEqual({
      command: 'pyright-langserver',
      args: ['--stdio'],
    });
    // On this machine: the server this package installed, run by this Node.
    expect(serverCommand(typescriptLanguageServer(), localFileSystem)).toEqual({
      command: process.execPath,
      args: [expect.stringMatching(/\/typescript-language-server\/lib\/cli\.mjs$/), '--stdio'],
    });
  });
});
