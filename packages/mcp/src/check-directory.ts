import { constants } from 'node:fs';
import fs from 'node:fs/promises';

// Deliberately free of @kimi-tools/core: command-line mistakes are reported before the tools are loaded.
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a directory given on the command line cannot be served, or `undefined` when it can. */
export async function directoryProblem(dir: string, label: string): Promise<string | undefined> {
  let stats;
  try {
    stats = await fs.stat(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${label} ${dir} does not exist.`;
    return `${label} ${dir} cannot be read: ${errorText(error)}`;
  }
  if (!stats.isDirectory()) return `${label} ${dir} is not a directory.`;
  try {
    // Listing needs read permission, entering needs execute permission.
    await fs.access(dir, constants.R_OK | constants.X_OK);
  } catch (error) {
    return `${label} ${dir} is not readable: ${errorText(error)}`;
  }
  return undefined;
}
