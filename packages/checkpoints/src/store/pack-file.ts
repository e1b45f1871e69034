import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateRaw, inflateRaw } from 'node:zlib';

// A pack: the contents one checkpoint added to the store, in one file written once and flushed once. Small contents
// are gathered into blocks of about BLOCK_TARGET bytes, each compressed as one (one zlib call per block rather than
// per file, and a file compresses better beside its neighbours); a large content is a block of its own. Layout:
//
//   [block]...  [index: one INDEX_ENTRY_BYTES entry per content]  [footer: FOOTER_BYTES]
//
// The index is sorted by hash (a content is found by a binary search). An entry: the SHA-256 (32 bytes), the block's offset and stored length (float64 LE each), the block's format
// (u8: RAW or DEFLATE, then 3 bytes of padding), the content's offset in the decoded block (u32 LE) and its length
// (float64 LE). The footer: MAGIC, the format version (u32), the index's offset (float64), the count of entries
// (u32), the CRC-32 of the index (u32), 8 bytes of zeros.

const deflateAsync = promisify(deflateRaw);
const inflateAsync = promisify(inflateRaw);

const MAGIC = Buffer.from('KTPK');
const VERSION = 1;
const FOOTER_BYTES = 32;
const INDEX_ENTRY_BYTES = 64;

/** A block's format. */
const RAW = 0;
const DEFLATE = 1;

/** Contents are gathered until a block holds this much (beyond deflate's 32 KiB window it barely compresses better). */
const BLOCK_TARGET = 64 * 1024;

/** Compression is kept only when it saves at least this share of the bytes: below it, reading raw is cheaper. */
const MIN_SAVING = 0.1;

/** Sealed blocks waiting to be compressed and written, in bytes, before `put` waits for them. */
const PENDING_MAX = 16 << 20;

/** A fresh name for a pack (random: two processes never pick the same). */
export function newPackName(): string {
  return randomBytes(8).toString('hex');
}

/** The index entry of a content. */
function indexEntry(
  hash: string,
  blockOffset: number,
  blockLength: number,
  format: number,
  offset: number,
  length: number,
): Buffer {
  const entry = Buffer.alloc(INDEX_ENTRY_BYTES);
  entry.write(hash, 0, 32, 'hex');
  entry.writeDoubleLE(blockOffset, 32);
  entry.writeDoubleLE(blockLength, 40);
  entry.writeUInt8(format, 48);
  entry.writeUInt32LE(offset, 52);
  entry.writeDoubleLE(length, 56);
  return entry;
}

/** The index and the footer that end a pack whose blocks end at `indexOffset`: the entries sorted by hash. */
function indexAndFooter(entries: readonly Buffer[], indexOffset: number): Buffer {
  const index = Buffer.concat([...entries].sort((a, b) => a.compare(b, 0, 32, 0, 32)));
  const footer = Buffer.alloc(FOOTER_BYTES);
  MAGIC.copy(footer, 0);
  footer.writeUInt32LE(VERSION, 4);
  footer.writeDoubleLE(indexOffset, 8);
  footer.writeUInt32LE(entries.length, 16);
  footer.writeUInt32LE(crc32(index), 20);
  return Buffer.concat([index, footer]);
}

/** Where a content is: its pack, its block, and its place in the decoded block. */
export interface ObjectLocation {
  pack: string;
  blockOffset: number;
  blockLength: number;
  format: number;
  offset: number;
  length: number;
}

/** One content given to a pack. */
interface Pending {
  hash: string;
  bytes: Uint8Array;
}

/**
 * Writes one pack under a temp name beside its final place; {@link PackWriter.finish} flushes it once and renames it
 * into place. Contents are appended in the order given; the caller checks what the store holds already.
 */
export class PackWriter {
  private handle: FileHandle | undefined;
  private readonly temp: string;
  private position = 0;
  private readonly index: Buffer[] = [];
  private block: Pending[] = [];
  private blockBytes = 0;
  private pendingBytes = 0;
  /** The writes of sealed blocks, one after the other, in order. */
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly written = new Set<string>();

  constructor(
    private readonly directory: string,
    readonly name: string = newPackName(),
  ) {
    this.temp = path.join(directory, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
  }

  /** Whether `hash` was given to this pack. */
  has(hash: string): boolean {
    return this.written.has(hash);
  }

  /** How many contents were given. */
  get count(): number {
    return this.written.size;
  }

  /** Adds a content (once per hash); resolves once the writes under way take little enough memory. */
  async put(hash: string, bytes: Uint8Array): Promise<void> {
    if (this.written.has(hash)) return;
    this.written.add(hash);
    if (bytes.length >= BLOCK_TARGET) this.seal([{ hash, bytes }], bytes.length);
    else {
      this.block.push({ hash, bytes });
      this.blockBytes += bytes.length;
      if (this.blockBytes >= BLOCK_TARGET) this.sealBlock();
    }
    if (this.pendingBytes > PENDING_MAX) await this.tail;
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Writes what is left, the index and the footer, flushes the file and renames it to `<name>.pack`; returns the
   * pack's name, or `undefined` (and no file) when nothing was given.
   */
  async finish(): Promise<string | undefined> {
    this.sealBlock();
    await this.tail;
    if (this.failure !== undefined) {
      await this.abort();
      throw this.failure;
    }
    if (this.handle === undefined) return undefined;
    try {
      await writeAll(this.handle, indexAndFooter(this.index, this.position), this.position);
      // The one flush of a checkpoint: its record, written after, never names contents a power loss could take.
      await this.handle.sync();
      await this.handle.close();
      this.handle = undefined;
      await fs.rename(this.temp, path.join(this.directory, `${this.name}.pack`));
      return this.name;
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  /** Drops the pack: its temp file is removed. */
  async abort(): Promise<void> {
    this.block = [];
    await this.tail.catch(() => undefined);
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await fs.unlink(this.temp).catch(() => undefined);
  }

  private sealBlock(): void {
    if (this.block.length === 0) return;
    const block = this.block;
    const bytes = this.blockBytes;
    this.block = [];
    this.blockBytes = 0;
    this.seal(block, bytes);
  }

  /** Compresses a block now (on the thread pool) and queues its write after the ones before it. */
  private seal(contents: Pending[], size: number): void {
    this.pendingBytes += size;
    const raw =
      contents.length === 1 ? contents[0]!.bytes : Buffer.concat(contents.map((item) => item.bytes));
    const packed = deflateAsync(raw, { level: 1 }).then((deflated) =>
      deflated.length <= raw.length * (1 - MIN_SAVING)
        ? { format: DEFLATE, data: deflated as Uint8Array }
        : { format: RAW, data: raw },
    );
    // Awaited in turn below; until then a failure must not count as unhandled.
    packed.catch(() => undefined);
    this.tail = this.tail.then(async () => {
      if (this.failure !== undefined) return;
      try {
        const { format, data } = await packed;
        if (this.handle === undefined) {
          await fs.mkdir(this.directory, { recursive: true });
          this.handle = await fs.open(this.temp, 'wx', 0o600);
        }
        const blockOffset = this.position;
        await writeAll(this.handle, data, blockOffset);
        this.position += data.length;
        let offset = 0;
        for (const item of contents) {
          this.index.push(indexEntry(item.hash, blockOffset, data.length, format, offset, item.bytes.length));
          offset += item.bytes.length;
        }
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.pendingBytes -= size;
      }
    });
  }
}

async function writeAll(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let at = 0; at < data.length;) {
    const { bytesWritten } = await handle.write(data, at, data.length - at, position + at);
    at += bytesWritten;
  }
}

async function readExactly(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  for (let at = 0; at < length;) {
    const { bytesRead } = await handle.read(buffer, at, length - at, position + at);
    if (bytesRead === 0) throw new Error('The pack ended early.');
    at += bytesRead;
  }
  return buffer;
}

/** A pack's index, read once: its entries sorted by hash, searched in place. */
export class PackIndex {
  constructor(
    readonly name: string,
    private readonly entries: Buffer,
  ) {}

  get count(): number {
    return this.entries.length / INDEX_ENTRY_BYTES;
  }

  /** Where the content `hash` (its 32 bytes) is in this pack, if it is. */
  find(hash: Buffer): ObjectLocation | undefined {
    // The first four bytes decide almost every step, read as a number (a Buffer.compare per step cost more).
    const head = hash.readUInt32BE(0);
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = middle * INDEX_ENTRY_BYTES;
      const entryHead = this.entries.readUInt32BE(at);
      const order =
        entryHead !== head ? (entryHead < head ? -1 : 1) : this.entries.compare(hash, 4, 32, at + 4, at + 32);
      if (order === 0) return this.locationAt(middle);
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Every content of the pack: its hash (hex) and where it is. */
  *all(): Generator<[string, ObjectLocation]> {
    for (let entry = 0; entry < this.count; entry += 1) {
      const at = entry * INDEX_ENTRY_BYTES;
      yield [this.entries.toString('hex', at, at + 32), this.locationAt(entry)];
    }
  }

  private locationAt(entry: number): ObjectLocation {
    const at = entry * INDEX_ENTRY_BYTES;
    return {
      pack: this.name,
      blockOffset: this.entries.readDoubleLE(at + 32),
      blockLength: this.entries.readDoubleLE(at + 40),
      format: this.entries.readUInt8(at + 48),
      offset: this.entries.readUInt32LE(at + 52),
      length: this.entries.readDoubleLE(at + 56),
    };
  }
}

/** A pack's index; throws when the pack is not whole (its footer or index is damaged). */
export async function readPackIndex(directory: string, name: string): Promise<PackIndex> {
  const handle = await fs.open(path.join(directory, `${name}.pack`), 'r');
  try {
    const size = (await handle.stat()).size;
    if (size < FOOTER_BYTES) throw new Error('The pack has no footer.');
    const footer = await readExactly(handle, FOOTER_BYTES, size - FOOTER_BYTES);
    if (!footer.subarray(0, 4).equals(MAGIC) || footer.readUInt32LE(4) !== VERSION)
      throw new Error('The pack has no footer.');
    const indexOffset = footer.readDoubleLE(8);
    const count = footer.readUInt32LE(16);
    if (indexOffset + count * INDEX_ENTRY_BYTES !== size - FOOTER_BYTES)
      throw new Error('The pack does not add up.');
    const index = await readExactly(handle, count * INDEX_ENTRY_BYTES, indexOffset);
    if (crc32(index) !== footer.readUInt32LE(20)) throw new Error('The pack index is damaged.');
    return new PackIndex(name, index);
  } finally {
    await handle.close();
  }
}

/** The decoded bytes of a block. */
export async function readBlock(directory: string, location: ObjectLocation): Promise<Buffer> {
  const [block] = await readBlocks(directory, location.pack, [location]);
  return block!;
}

/** Blocks decoded at once (on the thread pool) while reading the next. */
const BLOCKS_AT_ONCE = 4;

/** The decoded bytes of blocks of one pack, in the order given: the pack opened once, read in the order of its blocks. */
export async function readBlocks(
  directory: string,
  pack: string,
  locations: readonly ObjectLocation[],
): Promise<Buffer[]> {
  const handle = await fs.open(path.join(directory, `${pack}.pack`), 'r');
  try {
    const order = locations
      .map((_, at) => at)
      .sort((a, b) => locations[a]!.blockOffset - locations[b]!.blockOffset);
    const blocks = new Array<Buffer>(locations.length);
    let next = 0;
    const lane = async () => {
      while (next < order.length) {
        const at = order[next++]!;
        const location = locations[at]!;
        const stored = await readExactly(handle, location.blockLength, location.blockOffset);
        blocks[at] = location.format === DEFLATE ? await inflateAsync(stored) : stored;
      }
    };
    await Promise.all(Array.from({ length: Math.min(BLOCKS_AT_ONCE, order.length) }, lane));
    return blocks;
  } finally {
    await handle.close();
  }
}

/** One block of a pack, for copying it whole into another (pruning). */
export interface StoredBlock {
  data: Buffer;
  format: number;
  contents: Array<{ hash: string; offset: number; length: number }>;
}

/**
 * Writes a pack made of blocks copied as they are stored (no compression again), flushed and renamed into place
 * as `<name>.pack`. Pruning rewrites a pack without its blocks no checkpoint needs any more.
 */
export async function writePackOfBlocks(
  directory: string,
  name: string,
  blocks: readonly StoredBlock[],
): Promise<void> {
  const temp = path.join(directory, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    let position = 0;
    const index: Buffer[] = [];
    for (const block of blocks) {
      await writeAll(handle, block.data, position);
      for (const item of block.contents) {
        index.push(
          indexEntry(item.hash, position, block.data.length, block.format, item.offset, item.length),
        );
      }
      position += block.data.length;
    }
    await writeAll(handle, indexAndFooter(index, position), position);
    await handle.sync();
    await handle.close();
    await fs.rename(temp, path.join(directory, `${name}.pack`));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The stored (not decoded) bytes of a block, for {@link writePackOfBlocks}. */
export async function readStoredBlock(directory: string, location: ObjectLocation): Promise<Buffer> {
  const handle = await fs.open(path.join(directory, `${location.pack}.pack`), 'r');
  try {
    return await readExactly(handle, location.blockLength, location.blockOffset);
  } finally {
    await handle.close();
  }
}
