import { promises as fs } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runServer } from 'verdaccio';

/** A Verdaccio registry on the loopback interface, with its storage in a temporary folder and no uplink. */
export interface LocalRegistry {
  /** The registry's address, with its trailing slash: `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** The publisher's token, as `npm adduser` would have stored it. */
  readonly token: string;
  /** The `.npmrc` line that lets npm publish to it: the token for its host (and for no other). */
  readonly publisherNpmrc: string;
  /** Stops the server. */
  close(): Promise<void>;
}

const PUBLISHER = { name: 'rehearsal', password: 'rehearsal-password', email: 'rehearsal@example.invalid' };

/**
 * The configuration: packages are stored under `dir`, nobody proxies to another registry (no `uplinks`, no `proxy`),
 * anyone may read, and only a user it knows may publish, as on the npm registry.
 */
function configuration(dir: string) {
  return {
    self_path: path.join(dir, 'config.yaml'),
    storage: path.join(dir, 'storage'),
    auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: 1, algorithm: 'sha1' } },
    uplinks: {},
    packages: {
      '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    max_body_size: '100mb',
  };
}

/** Adds the publisher through the registry's user API (what `npm adduser` does) and returns its token. */
async function addPublisher(url: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${PUBLISHER.name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      _id: `org.couchdb.user:${PUBLISHER.name}`,
      type: 'user',
      roles: [],
      ...PUBLISHER,
    }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) {
    throw new Error(`the local registry refused to add a user (${response.status}): ${body.error ?? ''}`);
  }
  return body.token;
}

/** Starts Verdaccio on 127.0.0.1 at a port the system chooses, storing everything under `dir`. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  await fs.mkdir(dir, { recursive: true });
  const server = (await runServer(configuration(dir))) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    const token = await addPublisher(url);
    const publisherNpmrc = `//127.0.0.1:${port}/:_authToken=${token}\n`;
    return { url, token, publisherNpmrc, close };
  } catch (error) {
    await close();
    throw error;
  }
}
