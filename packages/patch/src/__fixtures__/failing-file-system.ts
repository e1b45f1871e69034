import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core/fs';
import { isLockFileName } from '@kimi-tools/core/toolkit';
import { forwardingFileSystem } from '@kimi-tools/test-kit';

/** The operations of a file system that change something, by name. */
export type ChangingOperation = 'create' | 'rename' | 'unlink' | 'write' | 'sync';

/** A lock's grave, the directory its release over SSH renames it into before removing both. */
const LOCK_GRAVE = /\.kimi-lock\.kimi-tmp-[0-9a-f]{12}$/;

/** Whether `file` is a lock file, or a lock in its grave. */
export const isLockPath = (file: string): boolean =>
  isLockFileName(path.basename(file)) || LOCK_GRAVE.test(path.basename(path.dirname(file)));

/**
 * `base` (the run's backend), but the `failAt`-th changing operation (1-based, counted over all of them) fails with ENOSPC, as a
 * full disk would: a real file system with one injected failure, so that every step of a commit can be made to fail.
 * `operations` lists every changing operation made, in order. Lock files are left out, and their graves (taking the
 * locks comes before the commit, releasing them after, and their failures are the lock's own tests').
 */
export function failingFileSystem(base: FileSystem, failAt: number): FileSystem & { operations: string[] } {
  const operations: string[] = [];
  const step = (name: ChangingOperation, file: string) => {
    if (isLockPath(file)) return;
    operations.push(`${name} ${file}`);
    if (operations.length === failAt) {
      throw Object.assign(new Error(`ENOSPC: no space left on device, ${name} '${file}'`), {
        code: 'ENOSPC',
      });
    }
  };
  return {
    ...forwardingFileSystem(base),
    operations,
    async create(path, mode) {
      step('create', path);
      const file = await base.create(path, mode);
      return {
        ...file,
        read: file.read.bind(file),
        stat: file.stat.bind(file),
        truncate: file.truncate.bind(file),
        chmod: file.chmod.bind(file),
        chown: file.chown.bind(file),
        close: file.close.bind(file),
        write: async (buffer, offset, length, position) => {
          step('write', path);
          return file.write(buffer, offset, length, position);
        },
        sync: async () => {
          step('sync', path);
          return file.sync();
        },
      };
    },
    async rename(from, to) {
      step('rename', to);
      return base.rename(from, to);
    },
    async unlink(path) {
      step('unlink', path);
      return base.unlink(path);
    },
  };
}
