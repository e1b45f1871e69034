// The file an editing row changes: a fresh copy of the source before every run, with a fixed modification time. A
// copy is a new version of the file to the read state (its change time, and after a write its inode, differ), so
// each copy's stamp, as ReadFile would have left it, is written next to it for the child process to record.
import { copyFile, realpath, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stampOf } from '@kimi-tools/core/toolkit';
import { localFileSystem } from '@kimi-tools/core/fs';

const COPY_TIME = new Date(Date.UTC(2024, 0, 1));

/** The target (a real path), how to make it afresh, its size, and the file holding its current stamp (JSON). */
export interface FreshCopy {
  target: string;
  makeFresh: () => Promise<void>;
  size: number;
  snapshotFile: string;
}

/** Makes `name` in `dir` a copy of `source` once and says how to make it again. */
export async function freshCopyOf(source: string, dir: string, name: string): Promise<FreshCopy> {
  const target = path.join(await realpath(dir), name);
  const snapshotFile = `${target}.stamp.json`;
  let size = 0;
  const makeFresh = async () => {
    await copyFile(source, target);
    await utimes(target, COPY_TIME, COPY_TIME);
    const stamp = await stampOf(localFileSystem, target);
    if (typeof stamp === 'string') throw new Error(`${target} is ${stamp}`);
    size = stamp.size;
    await writeFile(snapshotFile, JSON.stringify(stamp));
  };
  await makeFresh();
  return { target, makeFresh, size, snapshotFile };
}
