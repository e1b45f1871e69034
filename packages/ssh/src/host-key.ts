import { promises as fs } from 'node:fs';
import {
  judgeHostKey,
  knownHostName,
  knownKeyTypes,
  parseKnownHosts,
  type KnownHostLine,
} from './known-hosts.js';
import {
  algorithmsOfKeyType,
  fingerprintOf,
  keyTypeOf,
  parseKeyFields,
  type PublicKey,
} from './public-key.js';
import { sshError } from './ssh-error.js';

/** The keys a host may present, given by the caller (`hostKey`): key lines, `SHA256:` fingerprints, or both. */
export interface ExpectedHostKeys {
  readonly keys: readonly PublicKey[];
  readonly fingerprints: readonly string[];
}

/**
 * Parses the `hostKey` option: each entry is a public key line (`ssh-ed25519 AAAA... [comment]`) or an OpenSSH
 * fingerprint (`SHA256:` and unpadded base64). Throws on anything else: a typo must not turn checking off.
 */
export function parseExpectedHostKeys(entries: readonly string[]): ExpectedHostKeys {
  const keys: PublicKey[] = [];
  const fingerprints: string[] = [];
  for (const entry of entries) {
    const text = entry.trim();
    if (/^SHA256:[A-Za-z0-9+/]{43}$/.test(text)) {
      fingerprints.push(text);
      continue;
    }
    const [type, base64] = text.split(/[ \t]+/);
    const key = parseKeyFields(type, base64);
    if (!key) {
      throw sshError(
        'EINVAL',
        `hostKey ${JSON.stringify(entry)} is neither a public key line (ssh-ed25519 AAAA...) nor a SHA256: fingerprint`,
      );
    }
    keys.push(key);
  }
  return { keys, fingerprints };
}

/** How a connection checks the server's host key, made afresh for every connection (known_hosts may change). */
export interface HostKeyCheck {
  /** Host key algorithms to ask for before ssh2's defaults: those of the keys known for the host. */
  readonly preferredAlgorithms: readonly string[];
  /** `undefined` to accept the key blob the server presented, or the error to refuse the connection with. */
  judge(blob: Buffer): Error | undefined;
}

/** Where the host is and what decides its key: the `hostKey` option when given, else the known_hosts files. */
export interface HostKeyRules {
  readonly host: string;
  readonly port: number;
  readonly expected?: ExpectedHostKeys;
  readonly knownHostsFiles: readonly string[];
}

/** The check for the next connection: reads the known_hosts files now (a missing file knows no host). */
export async function hostKeyCheck(rules: HostKeyRules): Promise<HostKeyCheck> {
  const where = `${rules.host}:${rules.port}`;
  const { expected } = rules;
  if (expected) {
    return {
      preferredAlgorithms: expected.keys.flatMap((key) => algorithmsOfKeyType(key.type)),
      judge: (blob) => {
        const accepted =
          expected.keys.some((key) => key.blob.equals(blob)) ||
          expected.fingerprints.includes(fingerprintOf(blob));
        return accepted
          ? undefined
          : sshError(
              'ERR_SSH_HOST_KEY_CHANGED',
              `the host key of ${where} (${describe(blob)}) is not the one the hostKey option expects: the connection ` +
                'was refused. Someone may be intercepting the connection, or the host has a new key; check it with ' +
                "the host's administrator before changing hostKey.",
            );
      },
    };
  }
  const lines = (await Promise.all(rules.knownHostsFiles.map(readKnownHosts))).flat();
  const name = knownHostName(rules.host, rules.port);
  return {
    preferredAlgorithms: knownKeyTypes(lines, name).flatMap(algorithmsOfKeyType),
    judge: (blob) => {
      const type = keyTypeOf(blob);
      const verdict = type ? judgeHostKey(lines, name, { type, blob }) : { kind: 'unknown' as const };
      switch (verdict.kind) {
        case 'known':
          return undefined;
        case 'revoked':
          return sshError(
            'ERR_SSH_HOST_KEY_REVOKED',
            `the host key of ${where} (${describe(blob)}) is revoked (${verdict.source}): the connection was refused.`,
          );
        case 'changed':
          return sshError(
            'ERR_SSH_HOST_KEY_CHANGED',
            `the host key of ${where} has changed: it presented ${describe(blob)}, and ${verdict.sources.join(', ')} ` +
              'holds another key for it. The connection was refused: someone may be intercepting it, or the host ' +
              'has a new key; if the administrator confirms the new key, replace the old line.',
          );
        case 'unknown':
          return sshError(
            'ERR_SSH_HOST_KEY_UNKNOWN',
            `the host key of ${where} (${describe(blob)}) is not known: ${name} is in none of ` +
              `${rules.knownHostsFiles.join(', ') || 'the known_hosts files (none given)'}. The connection was ` +
              "refused; check the fingerprint with the host's administrator, then add the key to known_hosts " +
              '(ssh-keyscan) or pass it as the hostKey option.',
          );
      }
    },
  };
}

async function readKnownHosts(file: string): Promise<KnownHostLine[]> {
  try {
    return parseKnownHosts(await fs.readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function describe(blob: Buffer): string {
  return `${keyTypeOf(blob) ?? 'unknown type'} ${fingerprintOf(blob)}`;
}
