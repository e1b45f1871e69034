import { localFileSystem } from '@kimi-tools/core/fs';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { withFileLock } from '@kimi-tools/core/toolkit';
import type { FileChange } from '../scan/changes.js';
import { StampIndex } from '../scan/stamp-index.js';
import { ObjectStore } from './object-store.js';

/** What a record's first line holds: all but the lists, so the newest and the oldest are read at little cost. */
export interface RecordSummary {
  /** Decimal, increasing: `1`, `2`, ... never reused while the store exists. */
  id: string;
  label: string | undefined;
  /** When it was taken, ISO 8601. */
  time: string;
  /** The object holding its manifest (see manifest.ts). */
  manifest: string;
  /**
   * The sizes of the distinct contents its manifest refers to, added up, or more: a checkpoint adds the sizes of
   * what it added to its predecessor's, and takes off nothing (what no path refers to any more is not looked for).
   */
  contentBytes: number;
  /**
   * A running total: the previous record's, plus the sizes of what this one `added`. The contents the records from
   * `k` to `n` refer to take at most `contentBytes(k) + storedBytes(n) - storedBytes(k)`.
   */
  storedBytes: number;
}

/** One checkpoint as the store keeps it: `checkpoints/<id, 10 digits>.json`, its summary line, then its lists. */
export interface CheckpointRecord extends RecordSummary {
  /** What changed since the checkpoint before it (every file, for the first). */
  files: FileChange[];
  /**
   * The objects it refers to that the record before it did not (its manifest's included), with their sizes: what
   * the store holds for the records from one on is that record's manifest and what the later ones added.
   */
  added: [hash: string, size: number][];
}

/** How long a process waits for another one to finish with the store before it gives up. */
const STORE_LOCK_TIMEOUT_MS = 120_000;

/** A temp file older than this was left by a process that died while writing it, and is removed by pruning. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** Manifests kept decoded (a rewind reads its target's and a diff two). */
const MANIFEST_CACHE = 4;

const RECORD_NAME = /^\d{10}\.json$/;

/** A record's parsed first line, checked to be a summary (a damaged record throws, as JSON that does not parse). */
function summaryOf(value: unknown): RecordSummary {
  const summary = value as Partial<RecordSummary> | null;
  if (
    typeof summary !== 'object' ||
    summary === null ||
    typeof summary.id !== 'string' ||
    typeof summary.manifest !== 'string' ||
    typeof summary.time !== 'string' ||
    typeof summary.contentBytes !== 'number' ||
    typeof summary.storedBytes !== 'number'
  )
    throw new Error('The checkpoint record is damaged.');
  return summary as RecordSummary;
}

/**
 * A checkpoint store on the host's local disk: the records, one file each, the packs of contents they refer to, and
 * the index of the newest checkpoint's scan. A record is written under a temp name and linked to its name, which
 * fails if another process took that id first (the writer then takes the next one): a record is visible complete
 * or not at all, and only after the pack it refers to was flushed. Taking a checkpoint, pruning and a rewind's commit
 * run under the store's lock file (core's `withFileLock`), so pruning never removes a content a checkpoint being
 * taken is about to refer to.
 */
export class CheckpointStore {
  readonly objects: ObjectStore;
  private readonly records: string;
  private readonly indexFile: string;
  private readonly manifests = new Map<string, StampIndex>();

  constructor(readonly directory: string) {
    this.objects = new ObjectStore(path.join(directory, 'packs'));
    this.records = path.join(directory, 'checkpoints');
    this.indexFile = path.join(directory, 'index');
  }

  /** Runs `task` holding the store's lock (every process and runtime on this store respects it). */
  async locked<T>(task: () => Promise<T>): Promise<T> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    // The store is the host's own storage, on the local disk whatever backend the workspace is on.
    return withFileLock(localFileSystem, path.join(this.directory, 'store'), task, {
      timeoutMs: STORE_LOCK_TIMEOUT_MS,
    });
  }

  /** The store directory's real path on this host's disk, or `undefined` while it does not exist. */
  async realDirectory(): Promise<string | undefined> {
    return fs.realpath(this.directory).catch(() => undefined);
  }

  /** The names of the record files, oldest first. */
  private async recordNames(): Promise<string[]> {
    const names = await fs.readdir(this.records).catch(() => [] as string[]);
    return names.filter((name) => RECORD_NAME.test(name)).sort();
  }

  /** Every record, oldest first. */
  async list(): Promise<CheckpointRecord[]> {
    const records: CheckpointRecord[] = [];
    for (const name of await this.recordNames()) {
      const record = await this.read(name, false).catch(() => undefined);
      if (record) records.push(record);
    }
    return records;
  }

  /**
   * The summary of the newest record that can be read, or `undefined`. A damaged one (cut short, overwritten) is
   * passed over as {@link list} leaves it out: else every later checkpoint would fail on it. Its id stays taken.
   */
  async newest(): Promise<RecordSummary | undefined> {
    return this.firstReadable((await this.recordNames()).reverse());
  }

  /** The summary of the first record of `names` that can be read. */
  private async firstReadable(names: readonly string[]): Promise<RecordSummary | undefined> {
    for (const name of names) {
      const summary = await this.read(name, true).catch(() => undefined);
      if (summary) return summary;
    }
    return undefined;
  }

  /** The record `id`, or `undefined`. */
  async get(id: string): Promise<CheckpointRecord | undefined> {
    if (!/^\d{1,10}$/.test(id)) return undefined;
    return this.read(recordName(Number(id)), false).catch(() => undefined);
  }

  /** The summary of record `id` (not its lists), or `undefined`. */
  async summary(id: string): Promise<RecordSummary | undefined> {
    if (!/^\d{1,10}$/.test(id)) return undefined;
    return this.read(recordName(Number(id)), true).catch(() => undefined);
  }

  /** A record file: its summary line only, or all of it. */
  private async read(name: string, summaryOnly: true): Promise<RecordSummary>;
  private async read(name: string, summaryOnly: false): Promise<CheckpointRecord>;
  private async read(name: string, summaryOnly: boolean): Promise<RecordSummary | CheckpointRecord> {
    const file = path.join(this.records, name);
    if (summaryOnly) {
      const handle = await fs.open(file, 'r');
      try {
        const chunks: Buffer[] = [];
        for (let position = 0; ;) {
          const chunk = Buffer.alloc(4096);
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
          const end = chunk.subarray(0, bytesRead).indexOf(10);
          chunks.push(chunk.subarray(0, end === -1 ? bytesRead : end));
          if (end !== -1 || bytesRead === 0) break;
          position += bytesRead;
        }
        return summaryOf(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } finally {
        await handle.close();
      }
    }
    const text = await fs.readFile(file, 'utf8');
    const cut = text.indexOf('\n');
    const summary = summaryOf(JSON.parse(text.slice(0, cut)));
    const lists = JSON.parse(text.slice(cut + 1)) as Pick<CheckpointRecord, 'files' | 'added'>;
    return { ...summary, ...lists };
  }

  /** The manifest of a record, as the rows of an index without stamps. */
  async manifestOf(record: Pick<RecordSummary, 'manifest'>): Promise<StampIndex> {
    let manifest = this.manifests.get(record.manifest);
    if (manifest === undefined) {
      manifest = StampIndex.decode(await this.objects.get(record.manifest));
      if (manifest === undefined)
        throw new Error(`The checkpoint store's object ${record.manifest} is damaged.`);
      this.manifests.set(record.manifest, manifest);
      if (this.manifests.size > MANIFEST_CACHE) this.manifests.delete(this.manifests.keys().next().value!);
    }
    return manifest;
  }

  /**
   * Writes a new record with the next free id; returns it. The caller holds the lock, has flushed the pack of the
   * contents it refers to, and gives `storedBytes` as the newest record's plus what this one added.
   */
  async add(fields: Omit<CheckpointRecord, 'id' | 'time'>): Promise<CheckpointRecord> {
    await fs.mkdir(this.records, { recursive: true });
    const newest = (await this.recordNames()).at(-1);
    let next = newest === undefined ? 1 : Number(newest.slice(0, 10)) + 1;
    for (;;) {
      const record: CheckpointRecord = { id: String(next), time: new Date().toISOString(), ...fields };
      const { files, added, ...summary } = record;
      const temp = path.join(this.records, `.${randomBytes(8).toString('hex')}.tmp`);
      await fs.writeFile(temp, `${JSON.stringify(summary)}\n${JSON.stringify({ files, added })}\n`, {
        flag: 'wx',
      });
      try {
        await fs.link(temp, path.join(this.records, recordName(next)));
        return record;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        next += 1;
      } finally {
        await fs.unlink(temp).catch(() => undefined);
      }
    }
  }

  /** The index of the newest checkpoint's scan, when there is a whole one made for this workspace. */
  async readIndex(root: string, backend: string): Promise<StampIndex | undefined> {
    const bytes = await fs.readFile(this.indexFile).catch(() => undefined);
    const index = bytes === undefined ? undefined : StampIndex.decode(bytes);
    return index?.header.root === root && index.header.backend === backend && !index.mayHaveLostNames
      ? index
      : undefined;
  }

  /** Replaces the index (a cache: not flushed; a torn one fails its check and is no index). */
  async writeIndex(index: StampIndex): Promise<void> {
    const temp = path.join(this.directory, `.index.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.writeFile(temp, index.encode(), { flag: 'wx', mode: 0o600 });
      await fs.rename(temp, this.indexFile);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Removes the oldest records beyond `maxCount`, then more of the oldest while the contents the others refer to
   * take more than `maxBytes` (counted as the files' own sizes, before compression), the newest record always
   * staying; then, when a record went, the packs no record needs (see `ObjectStore.prune`). The summaries of the
   * oldest and the newest record tell when nothing is to be done. Call it under the lock.
   */
  async prune(maxCount: number, maxBytes: number): Promise<string[]> {
    const names = await this.recordNames();
    // Damaged records are passed over, as everywhere: they are no checkpoints.
    const newest = await this.firstReadable([...names].reverse());
    const oldest = await this.firstReadable(names);
    if (newest === undefined || oldest === undefined) return [];
    const bound = oldest.contentBytes + newest.storedBytes - oldest.storedBytes;
    if (names.length <= maxCount && bound <= maxBytes) return [];
    const records = await this.list();
    if (records.length === 0) return [];
    const removed = records.splice(0, Math.max(0, records.length - maxCount));
    const referenced = async (): Promise<Map<string, number>> => {
      const sizes = (await this.manifestOf(records[0]!)).contents();
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
    for (const record of removed)
      await fs.unlink(path.join(this.records, recordName(Number(record.id)))).catch(() => undefined);
    await this.objects.prune(new Set(kept.keys()));
    await this.removeStaleTemps();
    return removed.map((record) => record.id);
  }

  /** Bytes the packs take on disk. */
  sizeOnDisk(): Promise<number> {
    return this.objects.sizeOnDisk();
  }

  /** Temp files left by a process that died while writing (a record, a pack, the index). */
  private async removeStaleTemps(): Promise<void> {
    for (const directory of [this.records, this.objects.directory, this.directory]) {
      for (const name of await fs.readdir(directory).catch(() => [] as string[])) {
        if (!name.endsWith('.tmp')) continue;
        const file = path.join(directory, name);
        const stats = await fs.stat(file).catch(() => undefined);
        if (stats && Date.now() - stats.mtimeMs > STALE_TEMP_MS) await fs.unlink(file).catch(() => undefined);
      }
    }
  }
}

function recordName(id: number): string {
  return `${String(id).padStart(10, '0')}.json`;
}
