import { startSshServer, type SshServer, type SshServerOptions } from '@kimi-tools/test-kit';
import { afterAll, beforeAll } from 'vitest';
import { sshFileSystem, type SshFileSystem } from '../ssh-file-system.js';
import type { SshFileSystemOptions } from '../options.js';

/** What a test file connects with: the server of the file, and a way to make backends on it. */
export interface SshFixture {
  readonly server: SshServer;
  /** A backend on the server, its host key given by line; `overrides` replace any option. */
  connect(root: string, overrides?: Partial<SshFileSystemOptions>): Promise<SshFileSystem>;
  /** The options `connect` uses. */
  options(root: string): SshFileSystemOptions;
}

/**
 * Starts one real OpenSSH server for the test file (stopped after it) and closes every backend made on it. Set-up
 * of one test file at a time, so the fixture is read inside tests and hooks, never at import.
 */
export function useSshServer(serverOptions: SshServerOptions = {}): SshFixture {
  let server: SshServer | undefined;
  const opened: SshFileSystem[] = [];
  beforeAll(async () => {
    server = await startSshServer(serverOptions);
  });
  afterAll(async () => {
    await Promise.all(opened.map((fs) => fs.close?.()));
    await server?.stop();
  });
  const fixture: SshFixture = {
    get server() {
      if (!server) throw new Error('the SSH server starts in beforeAll');
      return server;
    },
    options: (root) => ({
      host: fixture.server.host,
      port: fixture.server.port,
      username: fixture.server.username,
      privateKey: fixture.server.privateKey,
      hostKey: fixture.server.hostKeys[0]!.line,
      root,
    }),
    async connect(root, overrides = {}) {
      const fs = await sshFileSystem({ ...fixture.options(root), ...overrides });
      opened.push(fs);
      return fs;
    },
  };
  return fixture;
}
