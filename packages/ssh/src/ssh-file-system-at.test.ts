import { execFile, spawn } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';
import { sshFileSystemAt, type SshLoginOptions } from './ssh-file-system-at.js';

const run = promisify(execFile);

const ssh = useSshServer();
let home: string;
beforeEach(async () => {
  home = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-login-')));
  await nodeFs.mkdir(path.join(home, '.ssh'));
  // The server is known: known_hosts of this home decides its host key.
  await nodeFs.writeFile(
    path.join(home, '.ssh', 'known_hosts'),
    `[127.0.0.1]:${ssh.server.port} ${ssh.server.hostKeys[0]!.line}\n`,
  );
});
afterEach(() => nodeFs.rm(home, { recursive: true, force: true }));

const destination = () => `${ssh.server.username}@127.0.0.1:${ssh.server.port}`;

/** Puts the key the server accepts in `~/.ssh/<name>` of the test's home. */
const acceptedKeyAs = (name: string) =>
  nodeFs.writeFile(path.join(home, '.ssh', name), ssh.server.privateKey, { mode: 0o600 });

/** A key the server does not know, in `~/.ssh/<name>` (encrypted with `passphrase` when given). */
async function strangerKeyAs(name: string, passphrase = ''): Promise<string> {
  const file = path.join(home, '.ssh', name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', file]);
  return file;
}

/** Logs in, proves the connection works on the root, and closes it. */
async function logIn(options: SshLoginOptions = {}): Promise<void> {
  const fs = await sshFileSystemAt(destination(), home, { homeDir: home, agent: null, ...options });
  try {
    expect(fs.root).toBe(home);
    expect((await fs.readdir(home)).map((entry) => entry.name)).toContain('.ssh');
  } finally {
    await fs.close();
  }
}

async function refusal(options: SshLoginOptions = {}): Promise<NodeJS.ErrnoException> {
  return logIn(options).then(
    () => {
      throw new Error('the login was not refused');
    },
    (error: NodeJS.ErrnoException) => error,
  );
}

describe('sshFileSystemAt: the keys ssh would use', () => {
  test('logs in with ~/.ssh/id_ed25519, the host key checked in ~/.ssh/known_hosts', async () => {
    await acceptedKeyAs('id_ed25519');
    await logIn();
  });

  test('offers the next default key when the host refuses the first', async () => {
    await strangerKeyAs('id_ed25519');
    await acceptedKeyAs('id_rsa');
    await logIn();
  });

  test('passes over an encrypted key (no passphrase can be asked) for the next one', async () => {
    await strangerKeyAs('id_ed25519', 'secret phrase');
    await acceptedKeyAs('id_ecdsa');
    await logIn();
  });

  test('with an identity file, offers that key alone', async () => {
    await acceptedKeyAs('id_ed25519');
    const stranger = await strangerKeyAs('elsewhere');
    expect((await refusal({ identityFile: stranger })).code).toBe('ERR_SSH_AUTHENTICATION');
    await acceptedKeyAs('work_key');
    await logIn({ identityFile: path.join(home, '.ssh', 'work_key') });
  });

  test('an identity file that is missing or encrypted is refused before connecting', async () => {
    const missing = path.join(home, 'nope');
    expect(await refusal({ identityFile: missing })).toMatchObject({
      code: 'EINVAL',
      message: `EINVAL: the identity file ${missing} does not exist`,
    });
    const encrypted = await strangerKeyAs('locked', 'secret phrase');
    expect((await refusal({ identityFile: encrypted })).message).toBe(
      `EINVAL: the identity file ${encrypted} is encrypted: load it into an SSH agent (ssh-add) to use it`,
    );
  });

  test('says which keys the host refused, and why none is there to offer', async () => {
    const first = await strangerKeyAs('id_ed25519');
    const second = await strangerKeyAs('id_rsa');
    expect(await refusal()).toMatchObject({
      code: 'ERR_SSH_AUTHENTICATION',
      message: `ERR_SSH_AUTHENTICATION: ${ssh.server.username}@127.0.0.1:${ssh.server.port} refused every key offered: ${first}, ${second}`,
    });
    await nodeFs.rm(first);
    await nodeFs.rm(second);
    const locked = await strangerKeyAs('id_ecdsa', 'secret phrase');
    const error = await refusal();
    expect(error.code).toBe('EINVAL');
    expect(error.message).toBe(
      `EINVAL: no key to log in to ${ssh.server.username}@127.0.0.1:${ssh.server.port} with: no agent (SSH_AUTH_SOCK ` +
        `is not set) and no usable key in ${path.join(home, '.ssh')} (id_ed25519, id_ecdsa, id_rsa); ${locked} is ` +
        'encrypted: load it into an SSH agent (ssh-add) to use it. Give an identity file, or load the key into an agent',
    );
  });

  test('logs in through the agent of SSH_AUTH_SOCK when no key file is there', async () => {
    const socket = path.join(home, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    try {
      for (let tries = 0; !(await nodeFs.stat(socket).catch(() => undefined)); tries++) {
        if (tries > 200) throw new Error('ssh-agent did not make its socket');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const key = path.join(home, 'agent_key');
      await nodeFs.writeFile(key, ssh.server.privateKey, { mode: 0o600 });
      await run('ssh-add', ['-q', key], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
      await nodeFs.rm(key);
      await logIn({ agent: socket });
    } finally {
      agent.kill();
    }
  });

  test('an unknown host is refused as sshFileSystem refuses it', async () => {
    await acceptedKeyAs('id_ed25519');
    await nodeFs.writeFile(path.join(home, '.ssh', 'known_hosts'), '');
    expect((await refusal()).code).toBe('ERR_SSH_HOST_KEY_UNKNOWN');
    await logIn({ hostKey: ssh.server.hostKeys[0]!.fingerprint });
  });
});
