import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Where generated data is kept between runs, outside the repository (a 1 GiB log has no place in a work tree, and
 * ripgrep or git would walk it): `--data-dir`, else `KIMI_BENCH_DATA`, else the user's cache directory.
 */
export function defaultDataRoot(): string {
  const fromEnvironment = process.env['KIMI_BENCH_DATA'];
  if (fromEnvironment) return path.resolve(fromEnvironment);
  const cache = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return path.join(cache, 'kimi-tools-bench');
}

/** The data directory of one benchmark under `root`, created if missing. */
export async function benchDataDir(root: string, benchmarkName: string): Promise<string> {
  const dir = path.join(root, benchmarkName);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `filePath` with `generate()` unless it already exists. Generators must be deterministic (seeded), so a kept
 * file is the same data; change the file name when you change what a generator makes.
 */
export async function ensureDataFile(filePath: string, generate: () => string | Uint8Array): Promise<string> {
  if (await exists(filePath)) return filePath;
  // Written under a name of its own and renamed, so neither an interrupted run nor two runs at once leave a
  // half-made file behind.
  const partial = `${filePath}.${process.pid}.partial`;
  await writeFile(partial, generate());
  await rename(partial, filePath);
  return filePath;
}

/** {@link ensureDataFile} for data too big for one string: written from `chunks()` through a stream. */
export async function ensureStreamedFile(
  filePath: string,
  chunks: () => AsyncIterable<string | Uint8Array>,
): Promise<string> {
  if (await exists(filePath)) return filePath;
  const partial = `${filePath}.${process.pid}.partial`;
  await pipeline(chunks(), createWriteStream(partial));
  await rename(partial, filePath);
  return filePath;
}
