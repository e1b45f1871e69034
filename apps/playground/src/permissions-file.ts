import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parsePermissions } from '@kimi-tools/core';
import { errorText } from '@kimi-tools/core/toolkit';

/** Where a project keeps its permission rules by convention (docs/permissions.md#permissions-files). */
export const PERMISSIONS_FILE = '.kimi-tools/permissions';

/** The rules of a session and where they come from (`source` is how the intro names the file). */
export interface SessionPermissions {
  rules: string[];
  source: string | undefined;
}

/**
 * The rules of a session: those of `given` (`--permissions FILE`, relative to the current directory), else those of
 * the work dir's `.kimi-tools/permissions` when there is one, else none. An unreadable file or an invalid rule is a
 * usage error, naming the file and (for a rule) its line.
 */
export async function loadPermissions(
  given: string | undefined,
  workDir: string,
): Promise<SessionPermissions | { error: string }> {
  const label = given === undefined ? PERMISSIONS_FILE : `--permissions ${given}`;
  let text: string;
  try {
    text = await fs.readFile(given ?? path.join(workDir, PERMISSIONS_FILE), 'utf8');
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
