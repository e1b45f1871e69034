import { open } from 'node:fs/promises';

/** Bytes `file-type` needs to recognise every format it knows. */
export const FILE_HEAD_BYTES = 4100;

/** Reads up to `bytes` bytes from the start of a file (fewer when the file is shorter). */
export async function readFileHead(filePath: string, bytes: number = FILE_HEAD_BYTES): Promise<Uint8Array> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    let filled = 0;
    while (filled < bytes) {
      const { bytesRead } = await handle.read(buffer, filled, bytes - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
