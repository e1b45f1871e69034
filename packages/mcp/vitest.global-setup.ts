import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.dirname(fileURLToPath(import.meta.url));

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    const stats = await fs.stat(path.join(entry.parentPath, entry.name));
    newest = Math.max(newest, stats.mtimeMs);
  }
  return newest;
}

async function mtimeOrZero(file: string): Promise<number> {
  return fs.stat(file).then(
    (stats) => stats.mtimeMs,
    () => 0,
  );
}

/**
 * The end-to-end tests spawn the built binary, and turbo's `test` task builds only this package's dependencies:
 * build this package first when `dist` is missing or older than its sources.
 */
export default async function buildBinary(): Promise<void> {
  const built = Math.min(
    await mtimeOrZero(path.join(packageDir, 'dist/cli.js')),
    await mtimeOrZero(path.join(packageDir, 'dist/index.js')),
  );
  const sources = Math.max(
    await newestMtime(path.join(packageDir, 'src')),
    await mtimeOrZero(path.join(packageDir, 'tsup.config.ts')),
    await mtimeOrZero(path.join(packageDir, 'package.json')),
  );
  if (built > sources) return;
  execFileSync('npx', ['tsup'], { cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] });
}
