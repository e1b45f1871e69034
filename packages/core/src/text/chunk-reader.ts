import type { OpenFile } from '../fs/file-system.js';

/** One chunk read: its bytes (valid until the next chunk is asked for) and where they were in the file. */
export interface ReadChunk {
  bytes: Buffer;
  offset: number;
}

interface QueuedRead {
  offset: number;
  length: number;
  read: Promise<{ bytesRead: number }>;
  buffer: Buffer;
}

/**
 * Reads `[from, end)` of a file in order, a chunk at a time, with the next `ahead` reads already running on libuv's
 * thread pool while the caller works on the current chunk. More than one read in flight: on an idle two-core machine
 * they run side by side, which took a deep first read of the 1 GiB bench log from about 150 to about 100 ms (reading
 * a cached file is the kernel copying it, and one thread copies at about 7 GB/s).
 *
 * Buffers (`ahead + 1`) are taken in turn; a chunk's buffer is reused only once the caller has asked for the chunk
 * after it. A short read (the file shrank while being read) drops the reads queued after it and reads on from where
 * it stopped, until a read returns nothing.
 */
export class ChunkReader {
  private buffers: readonly Buffer[];
  private turn = 0;
  private nextOffset: number;
  private readonly queue: QueuedRead[] = [];

  /** `buffers`: as {@link useBuffers} takes them, for every read from the first on (default: its own). */
  constructor(
    private readonly file: OpenFile,
    from: number,
    private readonly end: number,
    private chunkBytes: number,
    private ahead: number,
    buffers?: readonly Buffer[],
  ) {
    this.nextOffset = from;
    this.buffers = buffers
      ? this.checked(buffers, chunkBytes, ahead)
      : Array.from({ length: ahead + 1 }, () => Buffer.allocUnsafe(0));
    this.fill();
  }

  /**
   * Later reads go into these buffers (`ahead + 1` of at least `chunkBytes`, e.g. in WebAssembly memory), read
   * `chunkBytes` at a time with `ahead` of them in flight (defaults: as before); chunks already read or being read
   * stay where they are.
   */
  useBuffers(buffers: readonly Buffer[], chunkBytes = this.chunkBytes, ahead = this.ahead): void {
    this.buffers = this.checked(buffers, chunkBytes, ahead);
    this.chunkBytes = chunkBytes;
    this.ahead = ahead;
    // Every one of them is free: start again at the first.
    this.turn = 0;
  }

  /** The next chunk, or `undefined` at the end (`end`, or earlier when the file shrank). */
  async next(): Promise<ReadChunk | undefined> {
    const head = this.queue.shift();
    if (!head) return undefined;
    const { bytesRead } = await head.read;
    if (bytesRead < head.length) {
      // The file is shorter than it was: what was queued after this read is stale. Every buffer is free again but
      // this chunk's: the reads to come start with the one after it.
      await this.drain();
      this.nextOffset = bytesRead === 0 ? this.end : head.offset + bytesRead;
      this.turn = (this.buffers.indexOf(head.buffer) + 1) % this.buffers.length;
    }
    this.fill();
    if (bytesRead === 0) return undefined;
    return { bytes: head.buffer.subarray(0, bytesRead), offset: head.offset };
  }

  /** `buffers`, when there are enough of them (`ahead + 1`) and each holds `chunkBytes`; else a RangeError. */
  private checked(buffers: readonly Buffer[], chunkBytes: number, ahead: number): readonly Buffer[] {
    if (buffers.length < ahead + 1 || buffers.some((buffer) => buffer.length < chunkBytes)) {
      throw new RangeError(`ChunkReader needs ${ahead + 1} buffers of ${chunkBytes} bytes`);
    }
    return buffers;
  }

  /** Waits for the reads still running: a handle must not be closed under them. */
  async drain(): Promise<void> {
    const queued = this.queue.splice(0);
    await Promise.all(queued.map((entry) => entry.read.catch(() => undefined)));
  }

  private fill(): void {
    while (this.queue.length < this.ahead && this.nextOffset < this.end) {
      const offset = this.nextOffset;
      const length = Math.min(this.chunkBytes, this.end - offset);
      let buffer = this.buffers[this.turn]!;
      if (buffer.length < length) {
        buffer = Buffer.allocUnsafe(this.chunkBytes);
        this.buffers = this.buffers.map((old, index) => (index === this.turn ? buffer : old));
      }
      this.turn = (this.turn + 1) % this.buffers.length;
      const read = this.file.read(buffer, 0, length, offset);
      // A read that fails while an earlier one is awaited must not count as unhandled: `next` rethrows it in turn.
      read.catch(() => undefined);
      this.queue.push({ offset, length, buffer, read });
      this.nextOffset = offset + length;
    }
  }
}
