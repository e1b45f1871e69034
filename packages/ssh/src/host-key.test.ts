import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useSshServer } from './__fixtures__/ssh-fixture.js';

const run = promisify(execFile);

// The server has two host keys: ed25519 (which ssh2 asks for first) and RSA.
const ssh = useSshServer({ hostKeyTypes: ['ed25519', 'rsa'] });
let dir: string;
beforeEach(async () => {
  dir = await nodeFs.realpath(await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-host-key-')));
});
afterEach(() => nodeFs.rm(dir, { recursive: true, force: true }));

const ed25519 = () => ssh.server.hostKeys[0]!;
const rsa = () => ssh.server.hostKeys[1]!;
const hostName = () => `[127.0.0.1]:${ssh.server.port}`;

/** A known_hosts file in the test's directory holding `lines`. */
async function knownHosts(...lines: string[]): Promise<string> {
  const file = path.join(dir, 'known_hosts');
  await nodeFs.writeFile(file, lines.map((line) => `${line}\n`).join(''));
  return file;
}

/** Connects with the host key decided by `hostKey` or by `knownHostsFiles`, and proves the connection works. */
async function connectWith(options: { hostKey?: string; knownHostsFiles?: string[] }) {
  const base = { ...ssh.options(dir), hostKey: undefined, ...options };
  const fs = await ssh.connect(dir, base);
  expect((await fs.stat(dir)).isDirectory()).toBe(true);
  await fs.close?.();
}

/** A public key line that is not the server's. */
async function strangerKey(): Promise<string> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'stranger')]);
  return (await nodeFs.readFile(path.join(dir, 'stranger.pub'), 'utf8')).trim();
}

describe('the hostKey option', () => {
  test('accepts the server key given as its public key line', async () => {
    await connectWith({ hostKey: ed25519().line });
  });

  test('accepts the server key given as its SHA256 fingerprint', async () => {
    await connectWith({ hostKey: ed25519().fingerprint });
  });

  test("accepts the server's RSA key line: that type is asked for first", async () => {
    await connectWith({ hostKey: rsa().line });
  });

  test('refuses any other key, before logging in', async () => {
    const stranger = await strangerKey();
    const accepted = () => ssh.server.log().split('Accepted publickey').length;
    const before = accepted();
    await expect(connectWith({ hostKey: stranger })).rejects.toMatchObject({
      code: 'ERR_SSH_HOST_KEY_CHANGED',
      message:
        `ERR_SSH_HOST_KEY_CHANGED: the host key of 127.0.0.1:${ssh.server.port} (ssh-ed25519 ` +
        `${ed25519().fingerprint}) is not the one the hostKey option expects: the connection was refused. Someone ` +
        "may be intercepting the connection, or the host has a new key; check it with the host's administrator " +
        'before changing hostKey.',
    });
    expect(accepted()).toBe(before);
  });

  test('refuses an entry that is neither a key line nor a fingerprint, without connecting', async () => {
    await expect(connectWith({ hostKey: 'SHA256:short' })).rejects.toMatchObject({
      code: 'EINVAL',
      message:
        'EINVAL: hostKey "SHA256:short" is neither a public key line (ssh-ed25519 AAAA...) nor a SHA256: fingerprint',
    });
  });
});

describe('known_hosts', () => {
  test('accepts the key listed under [host]:port', async () => {
    await connectWith({ knownHostsFiles: [await knownHosts(`${hostName()} ${ed25519().line}`)] });
  });

  test('accepts the key listed under a name hashed by ssh-keygen -H', async () => {
    const file = await knownHosts(`${hostName()} ${ed25519().line}`);
    await run('ssh-keygen', ['-H', '-f', file]);
    expect(await nodeFs.readFile(file, 'utf8')).toMatch(/^\|1\|/);
    await connectWith({ knownHostsFiles: [file] });
  });

  test('accepts a host known only by its RSA key, asking for that type first', async () => {
    await connectWith({ knownHostsFiles: [await knownHosts(`${hostName()} ${rsa().line}`)] });
  });

  test('reads ~/.ssh/known_hosts by default', async () => {
    const home = process.env['HOME'];
    process.env['HOME'] = dir;
    try {
      await nodeFs.mkdir(path.join(dir, '.ssh'));
      await nodeFs.writeFile(path.join(dir, '.ssh', 'known_hosts'), `${hostName()} ${ed25519().line}\n`);
      await connectWith({});
    } finally {
      process.env['HOME'] = home;
    }
  });

  test('refuses a host it does not list, naming the files read', async () => {
    const file = await knownHosts(`127.0.0.1 ${ed25519().line}`, `[127.0.0.1]:1 ${ed25519().line}`);
    await expect(connectWith({ knownHostsFiles: [file, path.join(dir, 'missing')] })).rejects.toMatchObject({
      code: 'ERR_SSH_HOST_KEY_UNKNOWN',
      message:
        `ERR_SSH_HOST_KEY_UNKNOWN: the host key of 127.0.0.1:${ssh.server.port} (ssh-ed25519 ` +
        `${ed25519().fingerprint}) is not known: ${hostName()} is in none of ${file}, ${dir}/missing. The ` +
        "connection was refused; check the fingerprint with the host's administrator, then add the key to " +
        'known_hosts (ssh-keyscan) or pass it as the hostKey option.',
    });
  });

  test('refuses a host it lists with another key: the key changed', async () => {
    const file = await knownHosts('# keys', `${hostName()} ${await strangerKey()}`);
    await expect(connectWith({ knownHostsFiles: [file] })).rejects.toMatchObject({
      code: 'ERR_SSH_HOST_KEY_CHANGED',
      message:
        `ERR_SSH_HOST_KEY_CHANGED: the host key of 127.0.0.1:${ssh.server.port} has changed: it presented ` +
        `ssh-ed25519 ${ed25519().fingerprint}, and ${file}:2 holds another key for it. The connection was refused: ` +
        'someone may be intercepting it, or the host has a new key; if the administrator confirms the new key, ' +
        'replace the old line.',
    });
  });

  test('refuses a revoked key even where the host lists it', async () => {
    const file = await knownHosts(`${hostName()} ${ed25519().line}`, `@revoked * ${ed25519().line}`);
    await expect(connectWith({ knownHostsFiles: [file] })).rejects.toMatchObject({
      code: 'ERR_SSH_HOST_KEY_REVOKED',
      message:
        `ERR_SSH_HOST_KEY_REVOKED: the host key of 127.0.0.1:${ssh.server.port} (ssh-ed25519 ` +
        `${ed25519().fingerprint}) is revoked (${file}:2): the connection was refused.`,
    });
  });
});
