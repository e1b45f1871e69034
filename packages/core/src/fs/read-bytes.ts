import type { OpenFile } from './file-system.js';

/**
 * Reads from the start of an open file until `maxBytes` bytes or its end, whichever comes first, looping over short
 * reads. The buffer starts at `expectedBytes` (e.g. the size a stat gave) and grows only when the file turns out
 * longer, so a small file under a large limit costs no large allocation.
 */
export async function readHandleUpTo(
  handle: Pick<OpenFile, 'read'>,
  maxBytes: number,
  expectedBytes: number = maxBytes,
): Promise<Buffer> {
  if (maxBytes <= 0) return Buffer.alloc(0);
  return readHandleOn(
    handle,
    Buffer.allocUnsafe(Math.max(1, Math.min(expectedBytes, maxBytes))),
    0,
    maxBytes,
  );
}

/**
 * Reads on from `length` bytes already in `buffer` (the file's first ones) until `maxBytes` bytes or the file's end,
 * whichever comes first, looping over short reads and doubling the buffer when the file turns out longer.
 */
async function readHandleOn(
  handle: Pick<OpenFile, 'read'>,
  filled: Buffer,
  length: number,
  maxBytes: number,
): Promise<Buffer> {
  let buffer = filled;
  for (;;) {
    if (length === buffer.length) {
      if (length >= maxBytes) break;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** Bytes asked for by one chunk of {@link readHandleConsuming} and {@link handleHoldsExactly}. */
const CHUNK_BYTES = 1 << 20;
/** How many chunks are read at once (a local backend serves them on its thread pool of four threads). */
const CHUNKS_IN_FLIGHT = 4;

/**
 * Reads `length` bytes at `position` into `buffer[offset...]`, looping over short reads, and stops early only at the
 * file's end. Resolves with how many bytes it read.
 */
export async function readHandleAtMost(
  handle: Pick<OpenFile, 'read'>,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, offset + filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * Reads chunks `0 .. count - 1` with `read`, {@link CHUNKS_IN_FLIGHT} at a time, and hands what each read to `take`
 * in order; asks for no more once `take` says stop. Chunk `index + CHUNKS_IN_FLIGHT` is asked for only after chunk
 * `index` was taken, so a caller may read it into the same buffer. Every read is settled before this returns: none
 * writes into a caller's buffer afterwards. Resolves with whether every chunk was taken.
 */
async function readChunksInOrder(
  count: number,
  read: (index: number) => Promise<number>,
  take: (index: number, bytesRead: number) => boolean,
): Promise<boolean> {
  const reads: Promise<number>[] = [];
  const ask = (index: number) => {
    if (index >= count) return;
    const reading = read(index);
    // Awaited in turn below, or settled at the end when the reading stops early.
    reading.catch(() => undefined);
    reads.push(reading);
  };
  for (let index = 0; index < Math.min(CHUNKS_IN_FLIGHT, count); index++) ask(index);
  try {
    for (let index = 0; index < count; index++) {
      if (!take(index, await reads[index]!)) return false;
      ask(index + CHUNKS_IN_FLIGHT);
    }
    return true;
  } finally {
    await Promise.allSettled(reads);
  }
}

/**
 * {@link readHandleUpTo} with no limit, handing each piece of the content to a consumer in order as soon as it and
 * every piece before it are in. The chunks are read several at a time, and `startConsumer` is called once the first
 * ones are asked for: the consumer's set-up (loading a hash) and its work overlap the reading instead of following
 * all of it. A chunk that comes back short is the end of the file: what was read past it does not count, and the
 * consumer never sees it.
 */
export async function readHandleConsuming(
  handle: Pick<OpenFile, 'read'>,
  expectedBytes: number,
  startConsumer: () => (piece: Uint8Array) => void,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(1, expectedBytes));
  let consume: ((piece: Uint8Array) => void) | undefined;
  let length = 0;
  const reading = readChunksInOrder(
    Math.ceil(buffer.length / CHUNK_BYTES),
    (index) => {
      const from = index * CHUNK_BYTES;
      return readHandleAtMost(handle, buffer, from, Math.min(CHUNK_BYTES, buffer.length - from), from);
    },
    (index, bytesRead) => {
      // Without a consumer (its start failed), the reading stops at once.
      if (consume === undefined) return false;
      consume(buffer.subarray(length, length + bytesRead));
      length += bytesRead;
      return length === Math.min(buffer.length, (index + 1) * CHUNK_BYTES);
    },
  );
  // The first chunks are asked for by now: the consumer's set-up overlaps their reading.
  try {
    consume = startConsumer();
  } finally {
    // Stops at once if the consumer's start failed; that failure is what is thrown.
    if (consume === undefined) await reading.catch(() => undefined);
  }
  if (!(await reading)) return buffer.subarray(0, length);
  // The file is longer than expected (it grew since its size was taken): the rest is read as it comes.
  const rest = await readHandleOn(handle, buffer, length, Number.MAX_SAFE_INTEGER);
  if (rest.length > length) consume(rest.subarray(length));
  return rest;
}

/**
 * Reads exactly `[from, to)` of an open file, looping over short reads; throws when the file ends before `to` (it
 * shrank while it was read, so what the caller planned from its size no longer holds).
 */
export async function readHandleRange(
  handle: Pick<OpenFile, 'read'>,
  from: number,
  to: number,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, to - from));
  const filled = await readHandleAtMost(handle, buffer, 0, buffer.length, from);
  if (filled < buffer.length) throw new Error(`The file ended at byte ${from + filled} while it was edited.`);
  return buffer;
}

/**
 * Whether an open file holds exactly `expected`, from its start to its end (one byte more would be a difference):
 * read in chunks, a few at a time into buffers that are reused, and compared, so checking a big file never holds a
 * second copy of it (a 5 MB overwrite re-checks the old bytes under the file lock).
 */
export async function handleHoldsExactly(
  handle: Pick<OpenFile, 'read'>,
  expected: Uint8Array,
): Promise<boolean> {
  // One byte past the expected end is asked for too: there must be none.
  const length = expected.length + 1;
  const buffers = Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, Math.ceil(length / CHUNK_BYTES)) }, () =>
    Buffer.allocUnsafe(Math.min(CHUNK_BYTES, length)),
  );
  let holds = false;
  await readChunksInOrder(
    Math.ceil(length / CHUNK_BYTES),
    (index) => {
      const from = index * CHUNK_BYTES;
      return readHandleAtMost(
        handle,
        buffers[index % buffers.length]!,
        0,
        Math.min(CHUNK_BYTES, length - from),
        from,
      );
    },
    (index, bytesRead) => {
      const from = index * CHUNK_BYTES;
      const read = buffers[index % buffers.length]!.subarray(0, bytesRead);
      if (from + bytesRead > expected.length || !read.equals(expected.subarray(from, from + bytesRead))) {
        return false;
      }
      if (bytesRead === Math.min(CHUNK_BYTES, length - from)) return true;
      // A chunk that ends short is the end of the file: it holds `expected` when that is where `expected` ends.
      holds = from + bytesRead === expected.length;
      return false;
    },
  );
  return holds;
}
