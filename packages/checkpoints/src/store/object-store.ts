import { promises as fs } from 'node:fs';
import path from 'node:path';
import { hashBytes } from '@kimi-tools/core/toolkit';
import {
  newPackName,
  PackWriter,
  readBlock,
  readBlocks,
  readPackIndex,
  readStoredBlock,
  writePackOfBlocks,
  type ObjectLocation,
  type PackIndex,
  type StoredBlock,
} from './pack-file.js';

/** Decoded blocks kept for the next reads (a rewind reads many contents of one block), at most this many bytes each. */
const BLOCK_CACHE_COUNT = 16;
const BLOCK_CACHE_MAX_BYTES = 1 << 20;

/** A pack is rewritten without its dead blocks once they take this share of it; a pack with no live block goes. */
const REPACK_DEAD_SHARE = 0.5;

/**
 * The contents of a checkpoint store, on the host's local disk, named by their SHA-256 (the hash core's read state
 * uses): each checkpoint that stores contents writes one pack of them (`packs/<name>.pack`, see pack-file.ts), so a
 * checkpoint costs one file and one flush whatever it adds. Packs are written under a temp name and renamed into
 * place: no reader, and no other process, ever sees half of one. Every content is checked against its hash when
 * read, so a damaged one is an error, never wrong bytes.
 */
export class ObjectStore {
  /** The indexes of the packs read so far, by name. */
  private readonly indexes = new Map<string, PackIndex>();
  private readonly blocks = new Map<string, Buffer>();

  /** Where the packs are: `<store>/packs`. */
  constructor(readonly directory: string) {}

  /** A new pack to write contents into. */
  writer(): PackWriter {
    return new PackWriter(this.directory);
  }

  /** The bytes of the content `hash`, checked against their hash. */
  async get(hash: string): Promise<Buffer> {
    const key = Buffer.from(hash, 'hex');
    for (let attempt = 0; ; attempt += 1) {
      let location = this.locate(key);
      if (location === undefined) {
        await this.refresh();
        location = this.locate(key);
      }
      if (location === undefined) throw new Error(`The checkpoint store's object ${hash} is missing.`);
      let block: Buffer;
      try {
        block = await this.block(location);
      } catch (error) {
        // Another process's pruning rewrote that pack meanwhile: the content is in the pack that replaced it.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt === 0) {
          this.indexes.delete(location.pack);
          await this.refresh();
          continue;
        }
        throw damaged(hash, error);
      }
      const bytes = block.subarray(location.offset, location.offset + location.length);
      if (bytes.length !== location.length || hashBytes(bytes) !== hash) throw damaged(hash);
      return Buffer.from(bytes);
    }
  }

  /**
   * The bytes of many contents (a rewind's), each checked against its hash: each pack is opened once and each block
   * read and decoded once, however many of the contents it holds.
   */
  async getMany(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const located = new Map<string, Array<{ hash: string; location: ObjectLocation }>>();
    let refreshed = false;
    for (const hash of new Set(hashes)) {
      const key = Buffer.from(hash, 'hex');
      let location = this.locate(key);
      if (location === undefined && !refreshed) {
        await this.refresh();
        refreshed = true;
        location = this.locate(key);
      }
      if (location === undefined) throw new Error(`The checkpoint store's object ${hash} is missing.`);
      const inPack = located.get(location.pack) ?? [];
      inPack.push({ hash, location });
      located.set(location.pack, inPack);
    }
    for (const [pack, contents] of located) {
      // One read per block, whatever number of the contents it holds.
      const blockOf = new Map<number, ObjectLocation>();
      for (const { location } of contents) blockOf.set(location.blockOffset, location);
      const blockLocations = [...blockOf.values()];
      let blocks: Buffer[];
      try {
        blocks = await readBlocks(this.directory, pack, blockLocations);
      } catch (error) {
        // Another process's pruning rewrote that pack meanwhile: one by one, from the pack that replaced it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw damaged(contents[0]!.hash, error);
        for (const { hash } of contents) found.set(hash, await this.get(hash));
        continue;
      }
      const decoded = new Map(blockLocations.map((location, at) => [location.blockOffset, blocks[at]!]));
      for (const { hash, location } of contents) {
        const bytes = decoded
          .get(location.blockOffset)!
          .subarray(location.offset, location.offset + location.length);
        if (bytes.length !== location.length || hashBytes(bytes) !== hash) throw damaged(hash);
        found.set(hash, Buffer.from(bytes));
      }
    }
    return found;
  }

  /** The size of the content `hash`, or `undefined` when the store does not have it. */
  async sizeOf(hash: string): Promise<number | undefined> {
    const key = Buffer.from(hash, 'hex');
    let location = this.locate(key);
    if (location === undefined) {
      await this.refresh();
      location = this.locate(key);
    }
    return location?.length;
  }

  /** Every content's hash, with its pack and its size (what the tests look at). */
  async list(): Promise<Map<string, { pack: string; length: number }>> {
    await this.refresh();
    const contents = new Map<string, { pack: string; length: number }>();
    for (const index of this.indexes.values())
      for (const [hash, location] of index.all())
        contents.set(hash, { pack: index.name, length: location.length });
    return contents;
  }

  /** Whether the store holds the content `hash`, among the packs read so far (see {@link refresh}). */
  holds(hash: string): boolean {
    return this.locate(Buffer.from(hash, 'hex')) !== undefined;
  }

  /** Where a content is, among the packs read so far. */
  private locate(hash: Buffer): ObjectLocation | undefined {
    for (const index of this.indexes.values()) {
      const location = index.find(hash);
      if (location !== undefined) return location;
    }
    return undefined;
  }

  /** The names of the packs, without `.pack`. */
  async packs(): Promise<string[]> {
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.pack')).map((name) => name.slice(0, -'.pack'.length));
  }

  /** Bytes the packs take on disk. */
  async sizeOnDisk(): Promise<number> {
    let total = 0;
    for (const name of await this.packs()) {
      const stats = await fs.stat(path.join(this.directory, `${name}.pack`)).catch(() => undefined);
      total += stats?.size ?? 0;
    }
    return total;
  }

  /**
   * Removes what no checkpoint needs: a pack none of whose blocks holds a content of `kept` is deleted; one whose
   * dead blocks take half of it or more is rewritten with its live blocks only (copied as stored), then deleted.
   * Call it under the store's lock.
   */
  async prune(kept: ReadonlySet<string>): Promise<void> {
    for (const name of await this.packs()) {
      const index = await readPackIndex(this.directory, name).catch(() => undefined);
      if (index === undefined) continue;
      const byBlock = new Map<
        number,
        { location: ObjectLocation; contents: StoredBlock['contents']; live: boolean }
      >();
      for (const [hash, location] of index.all()) {
        let block = byBlock.get(location.blockOffset);
        if (block === undefined) {
          block = { location, contents: [], live: false };
          byBlock.set(location.blockOffset, block);
        }
        block.contents.push({ hash, offset: location.offset, length: location.length });
        if (kept.has(hash)) block.live = true;
      }
      const blocks = [...byBlock.values()].sort((a, b) => a.location.blockOffset - b.location.blockOffset);
      const bytes = (list: typeof blocks) => list.reduce((sum, block) => sum + block.location.blockLength, 0);
      const live = blocks.filter((block) => block.live);
      const file = path.join(this.directory, `${name}.pack`);
      if (live.length === 0) {
        await fs.unlink(file).catch(() => undefined);
      } else if (bytes(blocks) - bytes(live) >= bytes(blocks) * REPACK_DEAD_SHARE) {
        const stored: StoredBlock[] = [];
        for (const block of live) {
          stored.push({
            data: await readStoredBlock(this.directory, block.location),
            format: block.location.format,
            contents: block.contents.filter((item) => kept.has(item.hash)),
          });
        }
        await writePackOfBlocks(this.directory, newPackName(), stored);
        await fs.unlink(file).catch(() => undefined);
      }
    }
    this.indexes.clear();
    this.blocks.clear();
  }

  /** Reads the index of every pack not read yet, and forgets the packs that are gone. */
  async refresh(): Promise<void> {
    const names = new Set(await this.packs());
    for (const name of [...this.indexes.keys()]) if (!names.has(name)) this.indexes.delete(name);
    for (const name of names) {
      if (this.indexes.has(name)) continue;
      const index = await readPackIndex(this.directory, name).catch((error: unknown) => {
        // A pack removed between the listing and the read: pruning replaced it.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      });
      if (index !== undefined) this.indexes.set(name, index);
    }
  }

  /** A decoded block, from the few kept or from its pack. */
  private async block(location: ObjectLocation): Promise<Buffer> {
    const key = `${location.pack}:${location.blockOffset}`;
    const cached = this.blocks.get(key);
    if (cached !== undefined) {
      this.blocks.delete(key);
      this.blocks.set(key, cached);
      return cached;
    }
    const block = await readBlock(this.directory, location);
    if (block.length <= BLOCK_CACHE_MAX_BYTES) {
      this.blocks.set(key, block);
      if (this.blocks.size > BLOCK_CACHE_COUNT) this.blocks.delete(this.blocks.keys().next().value!);
    }
    return block;
  }
}

function damaged(hash: string, cause?: unknown): Error {
  return new Error(`The checkpoint store's object ${hash} is damaged.`, cause === undefined ? {} : { cause });
}
