import { promises as fs, type Stats } from 'node:fs';
import { isMissingPathError } from './errno.js';

/**
 * `fs.stat`, or `undefined` when nothing is there (ENOENT), including when a parent is a file (ENOTDIR: the path
 * cannot exist). Other failures are thrown.
 */
export async function statIfExists(filePath: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(filePath);
  } catch (error) {
    if (isMissingPathError(error)) return undefined;
    throw error;
  }
}
