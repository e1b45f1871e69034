import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem } from './forwarding-file-system.js';

/** A call on a file opened for an update in place that {@link inPlaceFails} can make fail, with its syscall. */
const SYSCALLS = { write: 'write', truncate: 'ftruncate', sync: 'fsync' } as const;

/**
 * `base`, but the calls of `operation` on `file` opened for an update in place that `failing` picks (counted from 1,
 * over every such open) fail with `EIO`: a hard-linked file rewritten in place (so its links stay shared) that fails
 * part way. The other calls go through.
 */
export function inPlaceFails(
  base: FileSystem,
  file: string,
  operation: keyof typeof SYSCALLS,
  failing: (call: number) => boolean,
): FileSystem {
  const forwarded = forwardingFileSystem(base);
  let calls = 0;
  return {
    ...forwarded,
    open: async (path, mode) => {
      const handle = await forwarded.open(path, mode);
      if (path !== file || mode !== 'update') return handle;
      const real = handle[operation].bind(handle) as (...args: unknown[]) => Promise<unknown>;
      return Object.assign(Object.create(Object.getPrototypeOf(handle) as object) as typeof handle, handle, {
        write: handle.write.bind(handle),
        truncate: handle.truncate.bind(handle),
        sync: handle.sync.bind(handle),
        close: handle.close.bind(handle),
        [operation]: async (...args: unknown[]) => {
          if (!failing(++calls)) return real(...args);
          throw Object.assign(new Error(`EIO: i/o error, ${SYSCALLS[operation]} '${file}'`), { code: 'EIO' });
        },
      });
    },
  };
}

/**
 * `base`, but the first flush of `file` opened for an update in place fails with `EIO`: a hard-linked file rewritten in
 * place whose write may have changed it, failing at its end. Later flushes go through.
 */
export function inPlaceFlushFailsOnce(base: FileSystem, file: string): FileSystem {
  return inPlaceFails(base, file, 'sync', (call) => call === 1);
}
