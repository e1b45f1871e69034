import { isMissingPathError } from '../fs/errno.js';
import type { FileSystem, OpenFile } from '../fs/file-system.js';

/** What every PEM private key block says in its header (`PRIVATE KEY`, `RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`...). */
export const PRIVATE_KEY_MARKER = 'PRIVATE KEY';

/**
 * How much of a file is searched for the marker. A certificate chain with its key appended stays far below this
 * (a full public CA bundle is about 220 KB); a larger file is not searched but taken as holding a key.
 */
export const PRIVATE_KEY_SCAN_BYTES = 1024 * 1024;

/**
 * Whether the regular file at `filePath` on `fs` holds a PEM private key: {@link PRIVATE_KEY_MARKER} within its first
 * {@link PRIVATE_KEY_SCAN_BYTES} bytes. The answer is one fixed fact about the file, the same whatever a tool is
 * asked, so it reveals nothing else of the content. A file that cannot be searched (too large, unreadable) counts as
 * holding a key; one that is missing or not a regular file does not (the tools refuse those on their own). Only a
 * `.pem` is ever read; it is checked on the opened file, which never waits for a FIFO's writer, so a FIFO named
 * `x.pem` cannot hang it.
 */
export async function holdsPrivateKey(fs: FileSystem, filePath: string): Promise<boolean> {
  let handle: OpenFile;
  try {
    handle = await fs.open(filePath, 'read');
  } catch (error) {
    return !isMissingPathError(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return false;
    if (stats.size > PRIVATE_KEY_SCAN_BYTES) return true;
    const buffer = Buffer.alloc(stats.size);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const found = buffer.subarray(0, length).includes(PRIVATE_KEY_MARKER, 0, 'latin1');
    // The bytes may be a key: leave no copy of them behind in memory.
    buffer.fill(0);
    return found;
  } catch {
    return true;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
