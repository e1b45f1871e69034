import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { FileContent } from './temp-workspace.js';

const run = promisify(execFile);

/**
 * Sets `file`'s modification time to exactly `mtimeNs` (nanoseconds since the epoch), as an editor that restores
 * times does. `fs.utimes` takes seconds as a double, which cannot hold every nanosecond of a present-day time, so the
 * exact value goes through `touch -d @seconds.nanoseconds` (utimensat); the result is checked.
 */
export async function restoreMtimeNs(file: string, mtimeNs: bigint): Promise<void> {
  const seconds = mtimeNs / 1_000_000_000n;
  const nanoseconds = (mtimeNs % 1_000_000_000n).toString().padStart(9, '0');
  await run('touch', ['-m', '-c', '-d', `@${seconds}.${nanoseconds}`, file]);
  const restored = (await fs.stat(file, { bigint: true })).mtimeNs;
  if (restored !== mtimeNs)
    throw new Error(`could not restore the mtime of ${file}: ${restored} != ${mtimeNs}`);
}

/**
 * Rewrites `file` in place (same inode) with `content` and puts its modification time back, nanosecond for
 * nanosecond: a change only the content, the inode's change time (which no user-space tool can set) or a content
 * hash can reveal. Returns once the change time differs from the one before, as it does for any change made later
 * than the last one (a file system with coarse timestamps may need a moment for its clock to tick).
 */
export async function rewriteKeepingMtime(file: string, content: FileContent): Promise<void> {
  const before = await fs.stat(file, { bigint: true });
  await fs.writeFile(file, content);
  await restoreMtimeNs(file, before.mtimeNs);
  while ((await fs.stat(file, { bigint: true })).ctimeNs === before.ctimeNs) {
    await sleep(5);
    await restoreMtimeNs(file, before.mtimeNs);
  }
}
