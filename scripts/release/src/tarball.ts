import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/** A NUL-terminated ASCII field of a tar header. */
function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** The `path` record of a pax extended header (`<length> path=<value>\n` records), if it has one. */
function paxPath(body: Buffer): string | undefined {
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const length = Number(body.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) return undefined;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    if (record.startsWith('path=')) return record.slice('path='.length);
    at += length;
  }
  return undefined;
}

/**
 * The regular files of an npm tarball (gzipped ustar, as `npm pack` and `pnpm pack` write it), keyed by their path
 * inside the package (the leading `package/` removed).
 */
export function tarballFiles(gzipped: Uint8Array): Map<string, Buffer> {
  const tar = gunzipSync(gzipped);
  const files = new Map<string, Buffer>();
  let pendingPath: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const body = tar.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      pendingPath = paxPath(body);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = pendingPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    pendingPath = undefined;
    if (type !== '0' && type !== '\0') continue;
    files.set(name.replace(/^[^/]+\//, ''), Buffer.from(body));
  }
  return files;
}
