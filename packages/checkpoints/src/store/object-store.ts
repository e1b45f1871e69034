import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { hashBytes } from '@kimi-tools/core/toolkit';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The first byte of a stored object: how its payload is kept. */
const RAW = 0;
const GZIP = 1;

/** Compression is kept only when it saves at least this share of the bytes: below it, reading raw is cheaper. */
const GZIP_MIN_SAVING = 0.1;

/** Objects smaller than this are not worth a try at compressing. */
const GZIP_MIN_BYTES = 128;

/**
 * The content-addressed objects of a checkpoint store, on the host's local disk: one file per distinct content,
 * named by its SHA-256 (the hash core's read state uses), so a content stored by many checkpoints is kept once. An
 * object is written under a temp name, then renamed to its name: no reader, and no other process, ever
 * sees half of one. Two processes storing the same content at once both rename the same bytes into place.
 */
export class ObjectStore {
  /** Where the objects are: `<store>/objects/<first 2 hex>/<the other 62>`. */
  constructor(private readonly directory: string) {}

  /** The path of the object `hash`. */
  pathOf(hash: string): string {
    return path.join(this.directory, hash.slice(0, 2), hash.slice(2));
  }

  /** Whether the object `hash` is stored. */
  async has(hash: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  /** Stores `bytes` (gzip where it pays) unless they are stored already; returns their hash. */
  async put(bytes: Uint8Array, knownHash?: string): Promise<string> {
    const hash = knownHash ?? hashBytes(bytes);
    if (await this.has(hash)) return hash;
    let payload: Uint8Array = bytes;
    let format = RAW;
    if (bytes.length >= GZIP_MIN_BYTES) {
      const packed = await gzipAsync(bytes);
      if (packed.length <= bytes.length * (1 - GZIP_MIN_SAVING)) {
        payload = packed;
        format = GZIP;
      }
    }
    const target = this.pathOf(hash);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(
      path.dirname(target),
      `.${hash.slice(2, 10)}.${randomBytes(6).toString('hex')}.tmp`,
    );
    // Not flushed one by one (a first checkpoint writes tens of thousands): `get` checks every object against its
    // hash, so one a power loss damaged is an error, never wrong bytes.
    try {
      await fs.writeFile(temp, Buffer.concat([Buffer.of(format), payload]), { flag: 'wx', mode: 0o600 });
      await fs.rename(temp, target);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    return hash;
  }

  /** The bytes of the object `hash`, checked against their hash (a damaged object is an error, never wrong bytes). */
  async get(hash: string): Promise<Buffer> {
    const stored = await fs.readFile(this.pathOf(hash));
    const payload = stored.subarray(1);
    const bytes = stored[0] === GZIP ? await gunzipAsync(payload) : Buffer.from(payload);
    if (hashBytes(bytes) !== hash) throw new Error(`The checkpoint store's object ${hash} is damaged.`);
    return bytes;
  }

  /** Every stored object's hash and size on disk. */
  async list(): Promise<Map<string, number>> {
    const objects = new Map<string, number>();
    let prefixes: string[];
    try {
      prefixes = await fs.readdir(this.directory);
    } catch {
      return objects;
    }
    for (const prefix of prefixes) {
      const names = await fs.readdir(path.join(this.directory, prefix)).catch(() => [] as string[]);
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const stats = await fs.stat(path.join(this.directory, prefix, name)).catch(() => undefined);
        if (stats) objects.set(prefix + name, stats.size);
      }
    }
    return objects;
  }

  /** Every stored object's hash (no file is stat'ed). */
  async hashes(): Promise<string[]> {
    const hashes: string[] = [];
    for (const prefix of await fs.readdir(this.directory).catch(() => [] as string[])) {
      const names = await fs.readdir(path.join(this.directory, prefix)).catch(() => [] as string[]);
      for (const name of names) if (!name.startsWith('.')) hashes.push(prefix + name);
    }
    return hashes;
  }

  /** Removes the object `hash` (pruning); a missing one is fine. */
  async remove(hash: string): Promise<void> {
    await fs.unlink(this.pathOf(hash)).catch(() => undefined);
  }
}
