import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempWorkspace,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlayground, type Run } from './__fixtures__/run-playground.js';

const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/**
 * The arguments after `playground` on the line of the root README's quick start that runs it with `flag`: the lines
 * the README shows are the lines this test runs.
 */
async function quickStartArgs(flag: string): Promise<string[]> {
  const readme = await fs.readFile(ROOT_README, 'utf8');
  const quickStart = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const line = quickStart.split('\n').find((text) => text.includes(` playground ${flag}`));
  expect(line, `a quick-start line runs the playground with ${flag}`).toBeDefined();
  return line!.slice(line!.indexOf(' playground ') + ' playground '.length).split(' ');
}

/**
 * A transcript with what differs from one run to the next made the same: the session's temporary directory, the
 * checkpoints' times, and the line that says where the files are.
 */
function comparable(stdout: string): string {
  const root = /work dir: (\S+)\/project /.exec(stdout)?.[1];
  expect(root).toBeDefined();
  return stdout
    .split(root!)
    .join('<temp>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
    .replace(/^ {2}files on: .*\n/m, '');
}

// One real OpenSSH server on 127.0.0.1 for the file; the "remote" directory is one of this machine, reached through
// it, so the test can see what the session left there.
let server: SshServer;
let workspace: TempWorkspace;
/** A home whose ~/.ssh holds the key the server accepts and the server in known_hosts, as a user's would. */
let home: string;
let destination: string;
/** The default session on this machine's disk, in memory and over SSH, run at once, once for the file. */
let sessions: { local: Run; memory: Run; ssh: Run };

// Three whole sessions at once, and an SSH server: more than a hook's usual time on a loaded two-core machine.
beforeAll(async () => {
  server = await startSshServer();
  workspace = await createTempWorkspace();
  home = path.join(workspace.root, 'home');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_ed25519'), server.privateKey, { mode: 0o600 });
  await fs.writeFile(
    path.join(home, '.ssh', 'known_hosts'),
    `[127.0.0.1]:${server.port} ${server.hostKeys[0]!.line}\n`,
  );
  destination = `${server.username}@127.0.0.1:${server.port}`;
  const sshArgs = (await quickStartArgs('--ssh')).map((arg) =>
    arg === 'you@devbox.example.org' ? destination : arg === '/tmp' ? workspace.workDir : arg,
  );
  const memoryArgs = await quickStartArgs('--in-memory');
  const [local, memory, ssh] = await Promise.all([
    runPlayground([]),
    runPlayground(memoryArgs),
    runPlayground(sshArgs, { HOME: home, SSH_AUTH_SOCK: undefined }),
  ]);
  sessions = { local, memory, ssh };
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await workspace?.cleanup();
});

describe('the default session (what `pnpm playground` runs), without a terminal', () => {
  it('drives all ten tools, rewinds to a checkpoint taken at a user message, meets every expectation, undoes the last change and cleans up', async () => {
    const run = sessions.local;
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const tool of [
      'Glob',
      'Grep',
      'ReadFile',
      'StrReplaceFile',
      'NotebookEdit',
      'ApplyPatch',
      'WriteFile',
      'ReadMediaFile',
      'ListCheckpoints',
      'Rewind',
    ]) {
      expect(run.stdout).toContain(`→ ${tool} {`);
    }
    expect(run.stdout).toContain(
      '[Ambiguous match] Edit 1: found 2 matches of the old string (at lines 17, 24).',
    );
    expect(run.stdout).toContain('Edit 1 matched after normalising line endings.');
    expect(run.stdout).toContain('action: edit file outside of working directory');
    expect(run.stdout).toContain(
      '└ reject, with feedback "No changelog yet; we write it at release time" (this step\'s scripted answer)',
    );
    expect(run.stdout).toContain('└ approve (auto: no terminal)');
    // The user keeps one hunk of two, and writes their own version of a new file.
    expect(run.stdout).toContain(
      '└ approve hunks h2, with feedback "The Todo comment is fine as it is" (this step\'s scripted answer)',
    );
    expect(run.stdout).toContain("└ approve your edited version (this step's scripted answer)");
    // The sample's .kimi-tools/permissions: notes go through without a question, lock files never.
    expect(run.stdout).toContain('rules:    2 rules from .kimi-tools/permissions\n');
    expect(run.stdout).toContain('  └ allowed by the permission rule `allow WriteFile(notes/**)`\n');
    expect(run.stdout).toContain(
      '[Denied by permission rule] `tools.lock` is denied by the permission rule `deny Edit(**/*.lock)`.',
    );
    // The coloured diff, uncoloured under NO_COLOR.
    expect(run.stdout).toContain('  │ -port = 8080\n  │ +port = 3000\n');
    expect(run.stdout).not.toContain('\u001b[');
    // A checkpoint at each user message; the model takes its change back by rewinding to the one before it.
    expect(run.stdout).toContain(
      'user   No, the team likes that voice after all. Put it back as it was.\n' +
        '  ⚑ checkpoint 3 taken: 1 file changed since the last one (src/messages.ts)\n',
    );
    expect(run.stdout).toContain(
      '  ✓ ok Rewound to checkpoint 2: 1 file changed.\nsrc/messages.ts: modified since the checkpoint, restored\n',
    );
    expect(run.stdout).toContain('What changed (file history)');
    // The last change is ApplyPatch's, of three files: undone as one.
    expect(run.stdout).toMatch(
      /Undo of step \d+: 3 files restored\n {2}src\/todo\.ts restored to version 6\n[\s\S]* {2}src\/storage\/index\.ts removed \(it did not exist before\)\n[\s\S]* {2}config\/app\.ini restored to version 2\n/,
    );
    expect(run.stdout).toMatch(/✓ all \d+ expectation checks passed/);
    // The sample copy and the outside directory are gone.
    const workDir = /work dir: (\S+)/.exec(run.stdout)?.[1];
    expect(workDir).toBeDefined();
    await expect(fs.stat(path.dirname(workDir!))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("prints the same transcript in memory and over SSH as on this machine's disk, as the README's quick start runs them", async () => {
    const { local, memory, ssh } = sessions;
    // The transcripts first: a difference shows as a diff of the lines that differ.
    expect(comparable(memory.stdout)).toBe(comparable(local.stdout));
    expect(comparable(ssh.stdout)).toBe(comparable(local.stdout));
    for (const run of [memory, ssh]) {
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    }
    expect(local.stdout).toContain("\n  files on: this machine's disk\n");
    expect(memory.stdout).toContain('\n  files on: memory (gone when the session ends)\n');
    expect(ssh.stdout).toContain(`\n  files on: ${destination}, over SSH\n`);
    expect(ssh.stdout).toContain(`work dir: ${workspace.workDir}/kimi-playground-`);
    // The session logged in with ~/.ssh's key, and removed its temporary directory from the host at the end.
    expect(server.log()).toContain('Accepted publickey');
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
  });

  it('exits 2, saying why, when the host cannot be used', async () => {
    const key = path.join(workspace.root, 'deploy_key');
    await fs.writeFile(key, server.privateKey, { mode: 0o600 });
    const dir = workspace.outside('remote');
    await fs.mkdir(dir);
    // This home knows no host: the server's key is unknown, and refused.
    const run = await runPlayground(['--ssh', destination, '--identity', key, dir], {
      HOME: workspace.outsideDir,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(
        `^kimi-tools playground: --ssh: cannot work in ${dir} on ${destination}: ERR_SSH_HOST_KEY_UNKNOWN: the host key of 127\\.0\\.0\\.1:${server.port} `,
      ),
    );
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
