import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory under the OS temp dir, by its real path (macOS' /var is a symlink to /private/var). */
export async function makeTempDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `kimi-reliability-${label}-`));
  return fs.realpath(dir);
}

/** Removes a directory made by {@link makeTempDir}, whatever is left in it. */
export async function removeTempDir(dir: string | undefined): Promise<void> {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
}
