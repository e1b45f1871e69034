import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parsePermissions } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import { errorText, readHandleUpTo } from '@kimi-tools/core/toolkit';

/** Where a project keeps its permission rules by convention (docs/permissions.md#permissions-files). */
export const PERMISSIONS_FILE = '.kimi-tools/permissions';

/** The rules of a session and where they come from (`source` is how the intro names the file). */
export interface SessionPermissions {
  rules: string[];
  source: string | undefined;
}

/**
 * The rules of a session: those of `given` (`--permissions FILE`, relative to the current directory), else those of
 * the work dir's `.kimi-tools/permissions` when there is one, else none. The given file is on this machine; the work
 * dir's is where the session's files are (`files`: in memory or on an SSH host too). An unreadable file or an invalid
 * rule is a usage error, naming the file and (for a rule) its line.
 */
export async function loadPermissions(
  given: string | undefined,
  workDir: string,
  files: FileSystem,
): Promise<SessionPermissions | { error: string }> {
  const label = given === undefined ? PERMISSIONS_FILE : `--permissions ${given}`;
  let text: string;
  try {
    text =
      given === undefined
        ? await readWholeText(files, path.posix.join(workDir, PERMISSIONS_FILE))
        : await fs.readFile(given, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (given === undefined && missing) return { rules: [], source: undefined };
    return { error: `${label} cannot be read: ${errorText(error)}` };
  }
  try {
    return { rules: parsePermissions(text), source: given ?? PERMISSIONS_FILE };
  } catch (error) {
    return { error: `${label}: ${errorText(error)}` };
  }
}

// A rules file is a few lines: 1 MiB is far beyond any real one, and bounds what a stray file can cost.
const RULES_FILE_MAX_BYTES = 1024 * 1024;

async function readWholeText(files: FileSystem, file: string): Promise<string> {
  const handle = await files.open(file, 'read');
  try {
    return (await readHandleUpTo(handle, RULES_FILE_MAX_BYTES)).toString('utf8');
  } finally {
    await handle.close();
  }
}
