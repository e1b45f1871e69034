import fs from 'node:fs/promises';

/**
 * Reads a file whole, but never more than `limit + 1` bytes: a file that grew past the limit after it was
 * checked is caught (its result is longer than `limit`) without reading all of it.
 */
export async function readBytesUpTo(filePath: string, limit: number): Promise<Uint8Array> {
  const handle = await fs.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    let buffer = Buffer.allocUnsafe(Math.min(size, limit) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > limit) break;
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
