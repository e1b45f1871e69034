import path from 'node:path';
import { localFileSystem, type FileSystem } from '@kimi-tools/core/fs';
import { moduleFile } from '../common/module-file.js';

// The bundled ripgrep is a file of this machine: it is looked for on the local disk (`localFileSystem`), whatever
// file system the workspace is on, and run only by a backend whose programs run on this machine.

/** The name of ripgrep's program on this platform. */
const RIPGREP_PROGRAM = process.platform === 'win32' ? 'rg.exe' : 'rg';

/** Whether a local file exists and is a regular file someone may execute (any `x` bit; Windows has none to check). */
async function isExecutableFile(filePath: string): Promise<boolean> {
  try {
    const stats = await localFileSystem.stat(filePath);
    return stats.isFile() && (process.platform === 'win32' || (stats.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * The binary `@vscode/ripgrep` installs. Looked for first where the package's own `require.resolve` finds it
 * ({@link ripgrepBesideItsPackage}: a few `realpath`s and a `stat`); importing the package only where that finds
 * nothing (an install without `node_modules` folders): its import loads Node's CommonJS loader to resolve the
 * binary, about 10 M instructions of a fresh Grep process (`pnpm bench grep`).
 */
async function bundledRipgrep(): Promise<string | null> {
  const beside = await ripgrepBesideItsPackage();
  if (beside !== null) return beside;
  let rgPath: unknown;
  try {
    // Imported lazily: the module throws at import time when its per-platform package is missing.
    ({ rgPath } = await import('@vscode/ripgrep'));
  } catch {
    return null;
  }
  return typeof rgPath === 'string' && (await isExecutableFile(rgPath)) ? rgPath : null;
}

/** The real path of `node_modules/<packagePath>` in the folder nearest above `from` that has it, as Node looks. */
async function nearestInstall(from: string, packagePath: string): Promise<string | null> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    // Node never looks for `node_modules/node_modules`.
    if (path.basename(dir) !== 'node_modules') {
      try {
        return await localFileSystem.realpath(path.join(dir, 'node_modules', packagePath));
      } catch {
        // Not installed here: the folder above.
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The binary `@vscode/ripgrep` installs, found without importing the package. The package keeps its binary in a
 * per-platform package (`@vscode/ripgrep-linux-x64/bin/rg`) that it resolves from its own folder; both are looked
 * for here as Node would find them (the nearest `node_modules` above, no further), with `realpath` and `stat` alone,
 * which take no descriptor: Node's resolver keeps a `package.json` it could not open (no file descriptor to spare)
 * as missing for the life of the process, so one import during a descriptor shortage would leave every later Grep
 * without ripgrep.
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
 * The ripgrep binary of this machine: `override` when given (`null` when it does not exist), else the one
 * `@vscode/ripgrep` installed, else `rg` on `PATH`. `null` when none exists. Never downloads anything.
 */
export async function findRipgrep(override: string | undefined): Promise<string | null> {
  if (override !== undefined) return (await isExecutableFile(override)) ? override : null;
  return (await bundledRipgrep()) ?? (await ripgrepOnPath());
}

/**
 * The ripgrep Grep runs on `fs`, or `null` where `fs` runs no programs: `override` (Grep's `rgPath`, a path where the
 * files are); on a backend whose programs run on this machine, the `@vscode/ripgrep` binary; otherwise `rg`, looked up
 * on the backend's `PATH` when it runs. Whether it exists is known only then (`ENOENT`).
 */
export async function ripgrepCommand(fs: FileSystem, override: string | undefined): Promise<string | null> {
  if (!fs.capabilities.exec || !fs.exec) return null;
  if (override !== undefined) return override;
  const program = fs.platform === 'win32' ? 'rg.exe' : 'rg';
  if (fs.capabilities.localProcesses) return (await bundledRipgrep()) ?? program;
  return program;
}
