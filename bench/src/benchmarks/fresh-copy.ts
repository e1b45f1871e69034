// The file an editing row changes: a fresh copy of the source before every run, with a fixed modification time, so
// the snapshot a session took of it once (as ReadFile would) stays true for every copy.
import { copyFile, realpath, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { hashFile, type FileSnapshot } from '@kimi-tools/core/toolkit';

const COPY_TIME = new Date(Date.UTC(2024, 0, 1));

/** The target (a real path), how to make it afresh, and the session's snapshot of it. */
export interface FreshCopy {
  target: string;
  makeFresh: () => Promise<void>;
  snapshot: FileSnapshot;
}

/** Makes `name` in `dir` a copy of `source` once and says how to make it again. */
export async function freshCopyOf(source: string, dir: string, name: string): Promise<FreshCopy> {
  const target = path.join(await realpath(dir), name);
  const makeFresh = async () => {
    await copyFile(source, target);
    await utimes(target, COPY_TIME, COPY_TIME);
  };
  await makeFresh();
  const stats = await stat(target);
  return {
    target,
    makeFresh,
    snapshot: { mtimeMs: stats.mtimeMs, size: stats.size, hash: await hashFile(target) },
  };
}
