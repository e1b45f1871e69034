import { promises as fs, type Stats } from 'node:fs';

/**
 * `fs.stat`, or `undefined` when nothing is there (ENOENT), including when a parent is a file (ENOTDIR: the path
 * cannot exist). Other failures are thrown.
 */
export async function statIfExists(filePath: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
