import os from 'node:os';
import { localFileSystem, memoryFileSystem, type FileSystem } from '@kimi-tools/core/fs';
import type { Place } from './cli-args.js';

/** The file system a session runs on, opened. */
export interface OpenedPlace {
  fs: FileSystem;
  /** Where the session's temporary directory is made. */
  tempParent: string;
  /** What the intro says the files are on. */
  description: string;
  /** Ends what `fs` holds open (an SSH connection). */
  close(): Promise<void>;
}

/**
 * Opens the file system of `place`: this machine's disk (the temporary directory in the system's), a fresh one in
 * memory (in its `/tmp`), or a host over SSH (in the directory given there, logged in as `ssh` would). Resolves to
 * the usage error when the host cannot be used.
 */
export async function openPlace(place: Place): Promise<OpenedPlace | { error: string }> {
  switch (place.kind) {
    case 'local':
      return {
        fs: localFileSystem,
        tempParent: os.tmpdir(),
        description: "this machine's disk",
        close: async () => undefined,
      };
    case 'memory': {
      const fs = memoryFileSystem();
      await fs.mkdir('/tmp');
      return {
        fs,
        tempParent: '/tmp',
        description: 'memory (gone when the session ends)',
        close: async () => undefined,
      };
    }
    case 'ssh': {
      // Loaded only here: a session on this machine never loads the SSH client.
      const { parseSshDestination, sshFileSystemAt } = await import('@kimi-tools/ssh');
      try {
        const { username, host, port } = parseSshDestination(place.destination, os.userInfo().username);
        const fs = await sshFileSystemAt(place.destination, place.dir, {
          ...(place.identityFile !== undefined ? { identityFile: place.identityFile } : {}),
          ...(place.hostKey !== undefined ? { hostKey: place.hostKey } : {}),
        });
        return {
          fs,
          tempParent: fs.root,
          description: `${username}@${host}:${port}, over SSH`,
          close: () => fs.close(),
        };
      } catch (error) {
        return {
          error: `--ssh: cannot work in ${place.dir} on ${place.destination}: ${(error as Error).message}`,
        };
      }
    }
  }
}
