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
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(expectedBytes, maxBytes)));
  let length = 0;
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
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled);
    if (bytesRead === 0) throw new Error(`The file ended at byte ${from + filled} while it was edited.`);
    filled += bytesRead;
  }
  return buffer;
}

/** Bytes read and compared at a time by {@link handleHoldsExactly}. */
const COMPARE_CHUNK_BYTES = 1 << 20;

/**
 * Whether an open file holds exactly `expected`, from its start to its end (one byte more would be a difference):
 * read a chunk at a time into one buffer and compared, so checking a big file never holds a second copy of it
 * (a 5 MB overwrite re-checks the old bytes under the file lock).
 */
export async function handleHoldsExactly(
  handle: Pick<OpenFile, 'read'>,
  expected: Uint8Array,
): Promise<boolean> {
  const buffer = Buffer.allocUnsafe(Math.min(COMPARE_CHUNK_BYTES, expected.length + 1));
  for (let position = 0; ;) {
    // At the expected end, one byte is asked for: there must be none.
    const wanted = Math.min(buffer.length, expected.length + 1 - position);
    const { bytesRead } = await handle.read(buffer, 0, wanted, position);
    if (bytesRead === 0) return position === expected.length;
    if (position + bytesRead > expected.length) return false;
    const read = buffer.subarray(0, bytesRead);
    if (!read.equals(expected.subarray(position, position + bytesRead))) return false;
    position += bytesRead;
  }
}
