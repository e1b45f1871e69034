import { localFileSystem } from '@kimi-tools/core/fs';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { withFileLock } from '@kimi-tools/core/toolkit';
import type { FileChange } from '../scan/changes.js';
import type { Manifest } from '../scan/manifest.js';
import { ObjectStore } from './object-store.js';

/** One checkpoint as the store keeps it: `checkpoints/<id, 10 digits>.json`. */
export interface CheckpointRecord {
  /** Decimal, increasing: `1`, `2`, ... never reused while the store exists. */
  id: string;
  label: string | undefined;
  /** When it was taken, ISO 8601. */
  time: string;
  /** The object holding its {@link Manifest} (JSON). */
  manifest: string;
  /** What changed since the checkpoint before it (every file, for the first). */
  files: FileChange[];
  /** When its scan began (kept here, not in the manifest, so that two checkpoints of one state share it). */
  scannedAtMs: number;
  /**
   * The objects it refers to that the record before it did not (its manifest's included), with their sizes: what
   * the store holds for the records from one on is that record's manifest and what the later ones added.
   */
  added: [hash: string, size: number][];
}

/** The contents a manifest refers to, with their sizes. */
function contentsOf(manifest: Manifest): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of Object.values(manifest.entries))
    if (entry.type === 'file') sizes.set(entry.hash, entry.size);
  return sizes;
}

/** How long a process waits for another one to finish with the store before it gives up. */
const STORE_LOCK_TIMEOUT_MS = 120_000;

/** A temp file older than this was left by a process that died while writing it, and is removed by pruning. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * A checkpoint store on the host's local disk: the records, one file each, and the objects they refer to. A record
 * is written under a temp name and linked to its name, which fails if another process took that id first (the
 * writer then takes the next one): a record is visible complete or not at all. Taking a checkpoint and pruning run
 * under the store's lock file (core's `withFileLock`), so pruning never removes an object a checkpoint being taken
 * is about to refer to.
 */
export class CheckpointStore {
  readonly objects: ObjectStore;
  private readonly records: string;

  constructor(readonly directory: string) {
    this.objects = new ObjectStore(path.join(directory, 'objects'));
    this.records = path.join(directory, 'checkpoints');
  }

  /** Runs `task` holding the store's lock (every process and runtime on this store respects it). */
  async locked<T>(task: () => Promise<T>): Promise<T> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    // The store is the host's own storage, on the local disk whatever backend the workspace is on.
    return withFileLock(localFileSystem, path.join(this.directory, 'store'), task, {
      timeoutMs: STORE_LOCK_TIMEOUT_MS,
    });
  }

  /** Every record, oldest first. */
  async list(): Promise<CheckpointRecord[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.records);
    } catch {
      return [];
    }
    const records: CheckpointRecord[] = [];
    for (const name of names.filter((file) => /^\d{10}\.json$/.test(file)).sort()) {
      const text = await fs.readFile(path.join(this.records, name), 'utf8').catch(() => undefined);
      if (text !== undefined) records.push(JSON.parse(text) as CheckpointRecord);
    }
    return records;
  }

  /** The record `id`, or `undefined`. */
  async get(id: string): Promise<CheckpointRecord | undefined> {
    if (!/^\d{1,10}$/.test(id)) return undefined;
    const text = await fs.readFile(this.recordPath(Number(id)), 'utf8').catch(() => undefined);
    return text === undefined ? undefined : (JSON.parse(text) as CheckpointRecord);
  }

  /** The manifest of a record. */
  async manifestOf(record: CheckpointRecord): Promise<Manifest> {
    const stored = JSON.parse((await this.objects.get(record.manifest)).toString('utf8')) as Omit<
      Manifest,
      'scannedAtMs'
    >;
    return { ...stored, scannedAtMs: record.scannedAtMs };
  }

  /**
   * Stores `manifest` and a new record of it with the next free id; returns the record. `previous` is the newest
   * record's manifest (the caller holds the lock, so it stays the newest).
   */
  async add(
    manifest: Manifest,
    label: string | undefined,
    files: FileChange[],
    previous: Manifest | undefined,
  ): Promise<CheckpointRecord> {
    const { scannedAtMs, ...stored } = manifest;
    const manifestBytes = Buffer.from(JSON.stringify(stored));
    const manifestHash = await this.objects.put(manifestBytes);
    const before = previous ? contentsOf(previous) : new Map<string, number>();
    const added: [string, number][] = [[manifestHash, manifestBytes.length]];
    for (const [hash, size] of contentsOf(manifest)) if (!before.has(hash)) added.push([hash, size]);
    await fs.mkdir(this.records, { recursive: true });
    const existing = await this.list();
    let next = existing.length === 0 ? 1 : Number(existing.at(-1)!.id) + 1;
    for (;;) {
      const record: CheckpointRecord = {
        id: String(next),
        label,
        time: new Date().toISOString(),
        manifest: manifestHash,
        files,
        scannedAtMs,
        added,
      };
      const temp = path.join(this.records, `.${randomBytes(8).toString('hex')}.tmp`);
      await fs.writeFile(temp, `${JSON.stringify(record)}\n`, { flag: 'wx' });
      try {
        await fs.link(temp, this.recordPath(next));
        return record;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        next += 1;
      } finally {
        await fs.unlink(temp).catch(() => undefined);
      }
    }
  }

  /**
   * Removes the oldest records beyond `maxCount`, then more of the oldest while the contents the others refer to
   * take more than `maxBytes` (counted as the files' own sizes, before compression), the newest record always
   * staying; then, when a record went, every object no record refers to. Only the oldest kept record's manifest is
   * read: the others add what their `added` says. Call it under the lock.
   */
  async prune(maxCount: number, maxBytes: number): Promise<string[]> {
    const records = await this.list();
    const removed: CheckpointRecord[] = records.splice(0, Math.max(0, records.length - maxCount));
    const referenced = async (): Promise<Map<string, number>> => {
      const sizes = contentsOf(await this.manifestOf(records[0]!));
      sizes.set(records[0]!.manifest, 0);
      for (const record of records.slice(1)) for (const [hash, size] of record.added) sizes.set(hash, size);
      return sizes;
    };
    const bytesOf = (sizes: Map<string, number>) => [...sizes.values()].reduce((sum, size) => sum + size, 0);
    let kept = await referenced();
    while (records.length > 1 && bytesOf(kept) > maxBytes) {
      removed.push(records.shift()!);
      kept = await referenced();
    }
    if (removed.length === 0) return [];
    for (const record of removed) await fs.unlink(this.recordPath(Number(record.id))).catch(() => undefined);
    for (const hash of await this.objects.hashes()) if (!kept.has(hash)) await this.objects.remove(hash);
    await this.removeStaleTemps();
    return removed.map((record) => record.id);
  }

  /** Bytes the objects take on disk. */
  async sizeOnDisk(): Promise<number> {
    return [...(await this.objects.list()).values()].reduce((sum, size) => sum + size, 0);
  }

  private recordPath(id: number): string {
    return path.join(this.records, `${String(id).padStart(10, '0')}.json`);
  }

  /** Temp files left by a process that died while writing (a record or an object). */
  private async removeStaleTemps(): Promise<void> {
    const directories = [this.records];
    const prefixes = await fs.readdir(path.join(this.directory, 'objects')).catch(() => [] as string[]);
    directories.push(...prefixes.map((prefix) => path.join(this.directory, 'objects', prefix)));
    for (const directory of directories) {
      for (const name of await fs.readdir(directory).catch(() => [] as string[])) {
        if (!name.endsWith('.tmp')) continue;
        const file = path.join(directory, name);
        const stats = await fs.stat(file).catch(() => undefined);
        if (stats && Date.now() - stats.mtimeMs > STALE_TEMP_MS) await fs.unlink(file).catch(() => undefined);
      }
    }
  }
}
