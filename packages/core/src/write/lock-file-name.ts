import path from 'node:path';
import { siblingName } from './sibling-name.js';

// `.<name>.kimi-lock` beside the file it guards: hidden, and recognisable by cleanupStaleTempFiles.
const LOCK_SUFFIX = '.kimi-lock';
const LOCK_NAME = /^\..*\.kimi-lock$/s;

/** The lock file guarding `filePath` (its name shortened, with a hash, when the file's own name is very long). */
export function lockFilePath(filePath: string): string {
  return path.join(path.dirname(filePath), siblingName(path.basename(filePath), LOCK_SUFFIX));
}

/** Whether `fileName` is a lock file of `withFileLock`. */
export function isLockFileName(fileName: string): boolean {
  return LOCK_NAME.test(fileName);
}
