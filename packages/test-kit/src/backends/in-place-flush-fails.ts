import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem } from './forwarding-file-system.js';

/**
 * `base`, but the first flush of `file` opened for an update in place fails with `EIO`: a hard-linked file rewritten in
 * place (so its links stay shared) whose write may have changed it, failing at its end. Later flushes go through.
 */
export function inPlaceFlushFailsOnce(base: FileSystem, file: string): FileSystem {
  const forwarded = forwardingFileSystem(base);
  let failed = false;
  return {
    ...forwarded,
    open: async (path, mode) => {
      const handle = await forwarded.open(path, mode);
      if (path !== file || mode !== 'update') return handle;
      return Object.assign(Object.create(Object.getPrototypeOf(handle) as object) as typeof handle, handle, {
        write: handle.write.bind(handle),
        truncate: handle.truncate.bind(handle),
        close: handle.close.bind(handle),
        sync: async () => {
          if (failed) return handle.sync();
          failed = true;
          throw Object.assign(new Error(`EIO: i/o error, fsync '${file}'`), { code: 'EIO' });
        },
      });
    },
  };
}
