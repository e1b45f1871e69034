import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = path.dirname(fileURLToPath(import.meta.url));

async function mtimeOrZero(file: string): Promise<number> {
  return fs.stat(file).then(
    (stats) => stats.mtimeMs,
    () => 0,
  );
}

async function newestSource(): Promise<number> {
  let newest = Math.max(
    await mtimeOrZero(path.join(appDir, 'tsup.config.ts')),
    await mtimeOrZero(path.join(appDir, 'package.json')),
  );
  for (const entry of await fs.readdir(path.join(appDir, 'src'), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, await mtimeOrZero(path.join(entry.parentPath, entry.name)));
  }
  return newest;
}

/**
 * The end-to-end tests spawn `dist/main.js`, and turbo's `test` task builds only this app's dependencies: build
 * the app first when its bundle is missing or older than its sources.
 */
export default async function buildPlayground(): Promise<void> {
  if ((await mtimeOrZero(path.join(appDir, 'dist/main.js'))) > (await newestSource())) return;
  execFileSync('npx', ['tsup'], { cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
}
