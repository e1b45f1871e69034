import { isDescriptorShortage, retryOnDescriptorShortage } from '../fs/descriptor-shortage.js';
import type { FileSystem, OpenFile } from '../fs/file-system.js';
import { readHandleUpTo } from '../fs/read-bytes.js';
import { Slots } from '../fs/slots.js';

/** Ignore files are read up to this many bytes: a rule file is small, a huge or endless one must not stall the walk. */
export const IGNORE_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Ignore files open at once in the process. Process-wide on purpose, like the descriptor table it spares: each one
 * holds a descriptor while its reads wait behind the directory reads walks keep queued, and with a cap per walk,
 * several Globs at once still ran the process out of descriptors.
 */
const IGNORE_FILES_OPEN = new Slots(8);

/**
 * The text of an ignore file on `fs`, or `null` when there is none to read: missing, unreadable, or not a regular file (a
 * FIFO would block the read until a writer comes, a device such as `/dev/urandom` never ends). The type is decided on
 * the opened descriptor, so a file swapped between a check and the open cannot slip through; the open itself does
 * not wait on a FIFO. Past {@link IGNORE_FILE_MAX_BYTES} the rest is left unread, and so is the cut last line. When
 * the process has no file descriptor to spare, the open is tried again (`retryOnDescriptorShortage`, stopped by
 * `signal`), then the shortage is thrown: a file that could not be opened is not one that does not exist.
 */
export function readIgnoreFile(
  fs: FileSystem,
  filePath: string,
  signal?: AbortSignal,
): Promise<string | null> {
  return IGNORE_FILES_OPEN.run(() =>
    retryOnDescriptorShortage(() => readOpenIgnoreFile(fs, filePath), signal),
  );
}

async function readOpenIgnoreFile(fs: FileSystem, filePath: string): Promise<string | null> {
  let handle: OpenFile;
  try {
    handle = await fs.open(filePath, 'read');
  } catch (error) {
    // No descriptor to spare says nothing about the file: as "no rules" it would list what they ignore.
    if (isDescriptorShortage(error)) throw error;
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
    const bytes = await readHandleUpTo(handle, IGNORE_FILE_MAX_BYTES, stats.size + 1);
    const text = bytes.toString('utf8');
    if (bytes.length < IGNORE_FILE_MAX_BYTES) return text;
    return text.slice(0, text.lastIndexOf('\n') + 1);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
