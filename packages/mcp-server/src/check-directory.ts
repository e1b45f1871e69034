import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import {
  missingDirectoryMessage,
  notADirectoryMessage,
  notReadableDirectoryMessage,
  unreadableStatMessage,
} from './errors.js';

// Deliberately free of @kimi-tools/core (loading it costs about 0.1 s): command-line mistakes are reported before
// the tools are loaded, so this module words an unknown thrown value itself.
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
    if (code === 'ENOENT' || code === 'ENOTDIR') return missingDirectoryMessage(label, dir);
    return unreadableStatMessage(label, dir, errorText(error));
  }
  if (!stats.isDirectory()) return notADirectoryMessage(label, dir);
  try {
    // Listing needs read permission, entering needs execute permission.
    await fs.access(dir, constants.R_OK | constants.X_OK);
  } catch (error) {
    return notReadableDirectoryMessage(label, dir, errorText(error));
  }
  return undefined;
}
