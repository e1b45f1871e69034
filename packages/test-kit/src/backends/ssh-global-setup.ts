import type { TestProject } from 'vitest/node';
import { startSshServer } from '../ssh-server.js';
import type {} from './test-backend.js';

/**
 * vitest global setup of a run on the SSH backend: one real OpenSSH server on 127.0.0.1 for the whole run, with keys
 * made for it, which every worker reaches over its own connection; stopped when the run ends.
 */
export default async function startTestSshServer(project: TestProject): Promise<() => Promise<void>> {
  const server = await startSshServer();
  project.provide('kimiTestSshServer', {
    host: server.host,
    port: server.port,
    username: server.username,
    privateKey: server.privateKey,
    hostKey: server.hostKeys[0]!.line,
  });
  return () => server.stop();
}
