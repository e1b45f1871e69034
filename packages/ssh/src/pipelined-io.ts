import type { SftpSession } from './sftp-session.js';

/**
 * How many reads or writes are in flight at once on one range. A server serves at most `maxRead` bytes a request
 * (OpenSSH: 255 KiB), so a range is split, and its parts are sent without waiting for each other's answers: a 1 MiB
 * read costs one round trip, not five. Sixteen parts (4 MiB with OpenSSH) keep a fast link busy without holding much
 * memory in flight.
 */
const IN_FLIGHT = 16;

/**
 * Reads up to `length` bytes at `position` into `buffer[offset...]`, in parts of at most `maxRead` bytes sent
 * together. Returns how many bytes were read from the start of the range: a part that comes back short is the end of
 * the file, and what lies past it does not count.
 */
export async function readPipelined(
  session: SftpSession,
  handle: Buffer,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  const part = session.maxRead;
  const parts = Math.ceil(length / part);
  const read: number[] = [];
  let end = parts;
  let next = 0;
  const worker = async () => {
    while (next < Math.min(parts, end)) {
      const index = next++;
      const size = Math.min(part, length - index * part);
      const bytes = await session.read(handle, buffer, offset + index * part, size, position + index * part);
      read[index] = bytes;
      if (bytes < size) end = Math.min(end, index + 1);
    }
  };
  // Every part is settled before returning: none may still write into the caller's buffer afterwards.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(IN_FLIGHT, parts) }, worker));
  let total = 0;
  for (let index = 0; index < end; index++) {
    const bytes = read[index];
    if (bytes === undefined) break;
    total += bytes;
    if (bytes < Math.min(part, length - index * part)) return total;
  }
  if (total < length) {
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;
  }
  return total;
}

/**
 * Whether {@link writePipelined} sends a write of `length` bytes whole before it returns to the event loop: ssh2 copies
 * each part into its packet as it is sent, so the caller's buffer is free again as soon as the call returns.
 */
export function writtenInOneBurst(session: SftpSession, length: number): boolean {
  return Math.ceil(length / session.maxWrite) <= IN_FLIGHT;
}

/** Writes `buffer[offset, offset + length)` at `position`, in parts of at most `maxWrite` bytes sent together. */
export async function writePipelined(
  session: SftpSession,
  handle: Buffer,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): Promise<void> {
  const part = session.maxWrite;
  const parts = Math.ceil(length / part);
  let next = 0;
  const worker = async () => {
    while (next < parts) {
      const index = next++;
      const size = Math.min(part, length - index * part);
      await session.write(handle, buffer, offset + index * part, size, position + index * part);
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(IN_FLIGHT, parts) }, worker));
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
}
