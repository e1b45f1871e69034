import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { parseSshDestination } from './destination.js';
import type { SshFileSystemOptions } from './options.js';
import { sshError } from './ssh-error.js';
import { sshFileSystem, type SshFileSystem } from './ssh-file-system.js';

/** Options of {@link sshFileSystemAt}: those of `sshFileSystem` but where and how to log in. */
export interface SshLoginOptions extends Omit<
  SshFileSystemOptions,
  'host' | 'port' | 'username' | 'root' | 'privateKey' | 'passphrase' | 'agent'
> {
  /** A private key file to log in with, as `ssh -i FILE`: then only that key is offered. */
  identityFile?: string;
  /** The home directory whose `.ssh` holds the default keys and `known_hosts` (default: the user's). */
  homeDir?: string;
  /** The SSH agent's socket (default: `SSH_AUTH_SOCK`); `null` for none. */
  agent?: string | null;
}

/** The keys `ssh` tries when it is given none, in its order (those this backend can use). */
const DEFAULT_IDENTITIES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

/** A key file and what it holds, or why it cannot be offered. */
type KeyFile = { file: string; key: Buffer } | { file: string; skipped: string };

/**
 * A file system on `root` of the host `destination` names (`[user@]host[:port]`), logged in as the `ssh` command
 * would: with `identityFile` alone when given, else with the agent (`SSH_AUTH_SOCK`) and the first of
 * `~/.ssh/id_ed25519`, `id_ecdsa`, `id_rsa` that exists, then each further one the host refuses the previous for. An
 * encrypted default key is passed over (no passphrase can be asked): load it into the agent. The host key is checked
 * as `sshFileSystem` checks it (`hostKey`, else `~/.ssh/known_hosts` of `homeDir`).
 */
export async function sshFileSystemAt(
  destination: string,
  root: string,
  options: SshLoginOptions = {},
): Promise<SshFileSystem> {
  const { identityFile, homeDir = os.homedir(), agent: agentOption, ...rest } = options;
  const { username, host, port } = parseSshDestination(destination, os.userInfo().username);
  const target = `${username}@${host}:${port}`;
  const agent =
    agentOption === undefined ? process.env['SSH_AUTH_SOCK'] || undefined : (agentOption ?? undefined);
  const common: SshFileSystemOptions = {
    knownHostsFiles: [path.join(homeDir, '.ssh', 'known_hosts')],
    ...rest,
    host,
    port,
    username,
    root,
  };

  if (identityFile !== undefined) {
    const found = await readKeyFile(path.resolve(identityFile));
    if ('skipped' in found) throw sshError('EINVAL', `the identity file ${found.file} ${found.skipped}`);
    return sshFileSystem({ ...common, privateKey: found.key });
  }

  const files = await Promise.all(
    DEFAULT_IDENTITIES.map((name) => readKeyFile(path.join(homeDir, '.ssh', name))),
  );
  const keys = files.flatMap((found) => ('key' in found ? [found] : []));
  const skipped = files.flatMap((found) => ('skipped' in found && found.skipped !== MISSING ? [found] : []));
  if (keys.length === 0 && agent === undefined) {
    const why = skipped.map((found) => `; ${found.file} ${found.skipped}`).join('');
    throw sshError(
      'EINVAL',
      `no key to log in to ${target} with: no agent (SSH_AUTH_SOCK is not set) and no usable key in ` +
        `${path.join(homeDir, '.ssh')} (${DEFAULT_IDENTITIES.join(', ')})${why}. Give an identity file, or load the key into an agent`,
    );
  }
  // The agent is offered with the first key; a host that refuses both is offered each further key in turn.
  const attempts: SshFileSystemOptions[] =
    keys.length === 0
      ? [{ ...common, agent }]
      : keys.map((found, index) => ({
          ...common,
          privateKey: found.key,
          ...(index === 0 && agent !== undefined ? { agent } : {}),
        }));
  let refusal: unknown;
  for (const attempt of attempts) {
    try {
      return await sshFileSystem(attempt);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_SSH_AUTHENTICATION') throw error;
      refusal = error;
    }
  }
  if (attempts.length === 1) throw refusal;
  const offered = [...(agent === undefined ? [] : ["the agent's keys"]), ...keys.map((found) => found.file)];
  throw sshError('ERR_SSH_AUTHENTICATION', `${target} refused every key offered: ${offered.join(', ')}`);
}

/** Why a default key file was not offered: it is not there, which needs no word. */
const MISSING = 'does not exist';

async function readKeyFile(file: string): Promise<KeyFile> {
  let key: Buffer;
  try {
    key = await fs.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, skipped: MISSING };
    return { file, skipped: `cannot be read (${(error as Error).message})` };
  }
  const parsed = ssh2.utils.parseKey(key);
  if (!(parsed instanceof Error)) return { file, key };
  return /passphrase|encrypted/i.test(parsed.message)
    ? { file, skipped: 'is encrypted: load it into an SSH agent (ssh-add) to use it' }
    : { file, skipped: `is not a private key ssh2 can read (${parsed.message})` };
}
