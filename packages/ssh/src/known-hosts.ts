import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseKeyFields, type PublicKey } from './public-key.js';

/** One key line of a known_hosts file (sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT"). */
export interface KnownHostLine {
  /** `@revoked` refuses the key for the hosts it names; `@cert-authority` lines (certificates) are not used here. */
  readonly marker?: 'revoked' | 'cert-authority';
  /** The host-name field: comma-separated patterns (`*`, `?`, `!` negation), or one hashed name `|1|salt|hash`. */
  readonly hosts: string;
  readonly key: PublicKey;
  /** Where it is, for messages: `file:line`. */
  readonly source: string;
}

/** The name a host is known by: `host` on port 22, `[host]:port` on any other, as OpenSSH writes and looks it up. */
export function knownHostName(host: string, port: number): string {
  const name = host.toLowerCase();
  return port === 22 ? name : `[${name}]:${port}`;
}

/** The key lines of a known_hosts file; comments, blank lines and lines that hold no valid key are left out. */
export function parseKnownHosts(text: string, file: string): KnownHostLine[] {
  const lines: KnownHostLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const fields = raw.trim().split(/[ \t]+/);
    if (fields[0] === '' || fields[0]?.startsWith('#')) return;
    let marker: KnownHostLine['marker'];
    if (fields[0]?.startsWith('@')) {
      const name = fields.shift();
      if (name !== '@revoked' && name !== '@cert-authority') return;
      marker = name === '@revoked' ? 'revoked' : 'cert-authority';
    }
    const [hosts, type, base64] = fields;
    const key = parseKeyFields(type, base64);
    if (!hosts || !key) return;
    lines.push({ ...(marker ? { marker } : {}), hosts, key, source: `${file}:${index + 1}` });
  });
  return lines;
}

/** Whether a line's host field names `name` (from {@link knownHostName}). */
export function namesHost(hosts: string, name: string): boolean {
  if (hosts.startsWith('|1|')) return matchesHashedName(hosts, name);
  let matched = false;
  for (const pattern of hosts.toLowerCase().split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatches(negated ? pattern.slice(1) : pattern, name)) continue;
    // A negated pattern that matches rules the line out, whatever else it names.
    if (negated) return false;
    matched = true;
  }
  return matched;
}

/** A hashed name is `|1|` + base64 salt + `|` + base64 HMAC-SHA1 of the name under that salt. */
function matchesHashedName(hosts: string, name: string): boolean {
  const [, , salt, hash] = hosts.split('|');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** OpenSSH's host pattern: `*` any run of characters, `?` exactly one, everything else itself. */
function globMatches(pattern: string, name: string): boolean {
  const source = [...pattern]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's').test(name);
}

/** What the known_hosts lines say of the key a host presented. */
export type KnownHostVerdict =
  | { readonly kind: 'known'; readonly source: string }
  | { readonly kind: 'revoked'; readonly source: string }
  /** The host is known by other keys (`sources` lists them): it changed its key, or someone stands in between. */
  | { readonly kind: 'changed'; readonly sources: readonly string[] }
  | { readonly kind: 'unknown' };

/** Judges `key`, presented by the host known as `name`, against known_hosts lines, as OpenSSH does. */
export function judgeHostKey(
  lines: readonly KnownHostLine[],
  name: string,
  key: PublicKey,
): KnownHostVerdict {
  const forHost = lines.filter((line) => line.marker !== 'cert-authority' && namesHost(line.hosts, name));
  const revoked = forHost.find((line) => line.marker === 'revoked' && line.key.blob.equals(key.blob));
  if (revoked) return { kind: 'revoked', source: revoked.source };
  const plain = forHost.filter((line) => line.marker === undefined);
  const match = plain.find((line) => line.key.blob.equals(key.blob));
  if (match) return { kind: 'known', source: match.source };
  if (plain.length > 0) return { kind: 'changed', sources: plain.map((line) => line.source) };
  return { kind: 'unknown' };
}

/** The key types known for a host, best first as listed: the ones to ask the server for before any other. */
export function knownKeyTypes(lines: readonly KnownHostLine[], name: string): string[] {
  const types = lines
    .filter((line) => line.marker === undefined && namesHost(line.hosts, name))
    .map((line) => line.key.type);
  return [...new Set(types)];
}
