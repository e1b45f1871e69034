import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
    if (typeof rgPath === 'string' && (await isExecutableFile(rgPath))) return rgPath;
  } catch {
    // Looked for below.
  }
  return ripgrepBesideItsPackage();
}

/**
 * The binary `@vscode/ripgrep` installs, found by path rather than by Node's resolver. The resolver keeps a
 * `package.json` it could not open (no file descriptor to spare) as missing for the life of the process, so one
 * import of `@vscode/ripgrep` during a descriptor shortage would leave every later Grep without ripgrep. The package
 * keeps its binary in a per-platform package installed beside it (`@vscode/ripgrep-linux-x64/bin/rg`), which every
 * package manager that links `node_modules` folders places in the same `@vscode` folder. Finding it takes no
 * descriptor: only `realpath` and `stat` on the folders above this module.
 */
async function ripgrepBesideItsPackage(): Promise<string | null> {
  const arch = process.env['npm_config_arch'] ?? process.arch;
  const binary = path.join(
    `ripgrep-${process.platform}-${arch}`,
    'bin',
    process.platform === 'win32' ? 'rg.exe' : 'rg',
  );
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const vscodeFolder = path.dirname(await realpath(path.join(dir, 'node_modules', '@vscode', 'ripgrep')));
      const candidate = path.join(vscodeFolder, binary);
      if (await isExecutableFile(candidate)) return candidate;
    } catch {
      // Not installed in this folder: the one above, as Node would look.
    }
    if (path.dirname(dir) === dir) return null;
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
