import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { moduleFile } from '../common/module-file.js';

/** The name of ripgrep's program on this platform. */
const RIPGREP_PROGRAM = process.platform === 'win32' ? 'rg.exe' : 'rg';

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
  let rgPath: unknown;
  try {
    // Imported lazily: the module throws at import time when its per-platform package is missing.
    ({ rgPath } = await import('@vscode/ripgrep'));
  } catch {
    return ripgrepBesideItsPackage();
  }
  return typeof rgPath === 'string' && (await isExecutableFile(rgPath)) ? rgPath : null;
}

/** The real path of `node_modules/<packagePath>` in the folder nearest above `from` that has it, as Node looks. */
async function nearestInstall(from: string, packagePath: string): Promise<string | null> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    // Node never looks for `node_modules/node_modules`.
    if (path.basename(dir) !== 'node_modules') {
      try {
        return await realpath(path.join(dir, 'node_modules', packagePath));
      } catch {
        // Not installed here: the folder above.
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The binary `@vscode/ripgrep` installs, when importing the package failed: Node's resolver keeps a `package.json`
 * it could not open (no file descriptor to spare) as missing for the life of the process, so one import during a
 * descriptor shortage would leave every later Grep without ripgrep. The package keeps its binary in a per-platform
 * package (`@vscode/ripgrep-linux-x64/bin/rg`) that it resolves from its own folder; both are looked for here as
 * Node would find them (the nearest `node_modules` above, no further), with `realpath` and `stat` alone, which take
 * no descriptor.
 */
async function ripgrepBesideItsPackage(): Promise<string | null> {
  const ripgrepPackage = await nearestInstall(path.dirname(moduleFile()), path.join('@vscode', 'ripgrep'));
  if (ripgrepPackage === null) return null;
  // As the package itself names it.
  const arch = process.env['npm_config_arch'] || process.arch;
  const binary = await nearestInstall(
    ripgrepPackage,
    path.join('@vscode', `ripgrep-${process.platform}-${arch}`, 'bin', RIPGREP_PROGRAM),
  );
  return binary !== null && (await isExecutableFile(binary)) ? binary : null;
}

async function ripgrepOnPath(): Promise<string | null> {
  const dirs = (process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir.length > 0);
  for (const dir of dirs) {
    const candidate = path.join(dir, RIPGREP_PROGRAM);
    if (await isExecutableFile(candidate)) return candidate;
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
