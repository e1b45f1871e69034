import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

async function isExecutableFile(filePath: string): Promise<boolean> {
  try {
    if (!(await stat(filePath)).isFile()) return false;
    if (process.platform !== 'win32') await access(filePath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function bundledRipgrep(): Promise<string | null> {
  try {
    // Imported lazily: the module throws at import time when its per-platform package is missing.
    const { rgPath } = await import('@vscode/ripgrep');
    return typeof rgPath === 'string' && (await isExecutableFile(rgPath)) ? rgPath : null;
  } catch {
    return null;
  }
}

async function ripgrepOnPath(): Promise<string | null> {
  const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
  const dirs = (process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir.length > 0);
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * The ripgrep binary to run: Grep's `rgPath` option (a path that does not exist means "no ripgrep"), else the one
 * `@vscode/ripgrep` installed, else `rg` on `PATH`. `null` when none exists. Never downloads anything.
 */
export async function findRipgrep(override: string | undefined): Promise<string | null> {
  if (override !== undefined) return (await isExecutableFile(override)) ? override : null;
  return (await bundledRipgrep()) ?? (await ripgrepOnPath());
}
