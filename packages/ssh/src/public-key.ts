import { createHash } from 'node:crypto';

/** A public key as SSH sends it: its type name and the key blob (RFC 4253 §6.6). */
export interface PublicKey {
  /** The type written in the blob: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`... */
  readonly type: string;
  readonly blob: Buffer;
}

/** The type name a key blob starts with (a length-prefixed string), or `undefined` for a malformed blob. */
export function keyTypeOf(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (length === 0 || 4 + length > blob.length) return undefined;
  return blob.toString('latin1', 4, 4 + length);
}

/** OpenSSH's fingerprint of a key blob: `SHA256:` and the unpadded base64 of its SHA-256 digest. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Parses the key of a public key line (`ssh-ed25519 AAAA... comment`, as in a `.pub` file or after the host names of
 * a known_hosts line): `undefined` when the two fields do not make a key whose blob names the same type.
 */
export function parseKeyFields(type: string | undefined, base64: string | undefined): PublicKey | undefined {
  if (!type || !base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const blob = Buffer.from(base64, 'base64');
  return keyTypeOf(blob) === type ? { type, blob } : undefined;
}

/** The host key algorithms that use a key of this type (an RSA key signs with SHA-2 first). */
export function algorithmsOfKeyType(type: string): string[] {
  return type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type];
}
