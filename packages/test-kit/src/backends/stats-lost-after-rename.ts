import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem } from './forwarding-file-system.js';

/**
 * `base`, but once anything was renamed every `stat` fails with `ECONNRESET`: a connection that dropped right after a
 * commit, whose renames are made and whose look at what they wrote is lost.
 */
export function statsLostAfterRename(base: FileSystem): FileSystem {
  const forwarded = forwardingFileSystem(base);
  let renamed = false;
  return {
    ...forwarded,
    rename: async (from, to) => {
      renamed = true;
      return forwarded.rename(from, to);
    },
    stat: async (file) => {
      if (renamed) {
        throw Object.assign(new Error(`ECONNRESET: connection lost, stat '${file}'`), { code: 'ECONNRESET' });
      }
      return forwarded.stat(file);
    },
  };
}
