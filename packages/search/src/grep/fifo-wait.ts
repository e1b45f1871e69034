import { readdir, readFile } from 'node:fs/promises';

/** The kernel function a thread sleeps in while its `open` of a FIFO waits for the other end (Linux). */
const FIFO_OPEN_WAIT = 'wait_for_partner';

/**
 * Whether a process is stuck opening a FIFO: `true` when one of its threads sleeps in the FIFO open, `false` when
 * `/proc` shows that none does, `null` when it cannot tell (no `/proc`, as on macOS, or the kernel hides where
 * threads sleep). Reading a few tiny `/proc` files costs far less than looking over a whole tree for FIFOs.
 */
export async function waitsOnFifoOpen(pid: number): Promise<boolean | null> {
  let threads: string[];
  try {
    threads = await readdir(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  // Where the kernel hides where threads sleep, every thread shows `0`: one real name proves the others are shown.
  let shown = false;
  for (const thread of threads) {
    const where = await readProcText(`/proc/${pid}/task/${thread}/wchan`);
    if (where === FIFO_OPEN_WAIT) return true;
    if (where !== null && where !== '' && where !== '0') shown = true;
  }
  return shown ? false : null;
}

async function readProcText(filePath: string): Promise<string | null> {
  try {
    return (await readFile(filePath, 'utf8')).trim();
  } catch {
    return null;
  }
}
