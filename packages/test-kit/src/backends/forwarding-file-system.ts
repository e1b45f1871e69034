import type { FileSystem } from '@kimi-tools/core';

/** The operations of a {@link FileSystem}, by name. */
const OPERATIONS = [
  'stat',
  'lstat',
  'realpath',
  'readlink',
  'readdir',
  'open',
  'create',
  'rename',
  'unlink',
  'mkdir',
  'rmdir',
  'chmod',
  'utimes',
  'symlink',
  'link',
  'syncDirectory',
  'exec',
  'now',
  'close',
] as const satisfies readonly (keyof FileSystem)[];

/**
 * `base` as a plain object whose every operation forwards to it (bound, so a backend that is a class instance works
 * too): spread it and replace some, to inject a failure into whatever backend the run is on
 * (`{ ...forwardingFileSystem(workspace.fs), rename: failing }`).
 */
export function forwardingFileSystem(base: FileSystem): FileSystem {
  const forwarded: Partial<Record<(typeof OPERATIONS)[number], unknown>> = {};
  for (const name of OPERATIONS) {
    const operation = base[name] as ((...args: unknown[]) => unknown) | undefined;
    if (operation) forwarded[name] = operation.bind(base);
  }
  return {
    name: base.name,
    platform: base.platform,
    // Asked each time, as the local disk's is.
    get homeDir() {
      return base.homeDir;
    },
    capabilities: base.capabilities,
    ...(base.identity === undefined ? {} : { identity: base.identity }),
    ...(forwarded as Omit<FileSystem, 'name' | 'platform' | 'homeDir' | 'capabilities' | 'identity'>),
  };
}
