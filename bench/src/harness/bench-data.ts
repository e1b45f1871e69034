import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `bench/.bench-data/` (gitignored): generated data is kept there between runs. */
export const BENCH_DATA_ROOT = fileURLToPath(new URL('../../.bench-data/', import.meta.url));

/** The data directory of one benchmark, created if missing. */
export async function benchDataDir(benchmarkName: string): Promise<string> {
  const dir = path.join(BENCH_DATA_ROOT, benchmarkName);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * Makes `filePath` with `generate()` unless it already exists. Generators must be deterministic (seeded), so a kept
 * file is the same data; change the file name when you change what a generator makes.
 */
export async function ensureDataFile(filePath: string, generate: () => string | Uint8Array): Promise<string> {
  try {
    await access(filePath);
    return filePath;
  } catch {
    // Written under a name of its own and renamed, so neither an interrupted run nor two runs at once leave a
    // half-made file behind.
    const partial = `${filePath}.${process.pid}.partial`;
    await writeFile(partial, generate());
    await rename(partial, filePath);
    return filePath;
  }
}
