import type { FileSystem } from '@kimi-tools/core/fs';

/** The kernel function a thread sleeps in while its `open` of a FIFO waits for the other end (Linux). */
const FIFO_OPEN_WAIT = 'wait_for_partner';

/** A `wchan` file holds one kernel function name: a few dozen bytes. */
const WCHAN_BYTES = 256;

/**
 * Whether a process on `fs`'s host is stuck opening a FIFO: `true` when one of its threads sleeps in the FIFO open,
 * `false` when `/proc` shows that none does, `null` when it cannot tell (no `/proc`, as on macOS or in memory, or the
 * kernel hides where threads sleep). Reading a few tiny `/proc` files costs far less than looking over a whole tree
 * for FIFOs.
 */
export async function waitsOnFifoOpen(fs: FileSystem, pid: number): Promise<boolean | null> {
  let threads: string[];
  try {
    threads = (await fs.readdir(`/proc/${pid}/task`)).map((entry) => entry.name);
  } catch {
    return null;
  }
  // Where the kernel hides where threads sleep, every thread shows `0`: one real name proves the others are shown.
  let shown = false;
  for (const thread of threads) {
    const where = await readProcText(fs, `/proc/${pid}/task/${thread}/wchan`);
    if (where === FIFO_OPEN_WAIT) return true;
    if (where !== null && where !== '' && where !== '0') shown = true;
  }
  return shown ? false : null;
}

/** A small `/proc` file's text (its size reads as 0: it is read until it ends). */
async function readProcText(fs: FileSystem, filePath: string): Promise<string | null> {
  try {
    const file = await fs.open(filePath, 'read');
    try {
      const buffer = Buffer.alloc(WCHAN_BYTES);
      let length = 0;
      for (;;) {
        const { bytesRead } = await file.read(buffer, length, WCHAN_BYTES - length, length);
        if (bytesRead === 0 || length + bytesRead >= WCHAN_BYTES) {
          length += bytesRead;
          break;
        }
        length += bytesRead;
      }
      return buffer.toString('utf8', 0, length).trim();
    } finally {
      await file.close();
    }
  } catch {
    return null;
  }
}
