import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { startSshServer } from './ssh-server.js';

/** The first line the server sends on a fresh TCP connection, or the error that ended the attempt. */
function banner(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (data) => {
      resolve(data.toString('latin1').split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** `read()`'s value once `done` holds of it, or its last value after 10 s. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('startSshServer', () => {
  test('serves SSH on 127.0.0.1 with the keys it made, and stop() ends it and removes its directory', async () => {
    const server = await startSshServer({ hostKeyTypes: ['ed25519', 'rsa'] });
    try {
      expect(await banner(server.port)).toMatch(/^SSH-2\.0-OpenSSH_/);
      expect(server.hostKeys.map((key) => key.type)).toEqual(['ed25519', 'rsa']);
      expect(server.hostKeys[0]!.line).toMatch(/^ssh-ed25519 AAAA\S+ kimi-tools-test$/);
      expect(server.hostKeys[1]!.line).toMatch(/^ssh-rsa AAAA\S+ kimi-tools-test$/);
      for (const key of server.hostKeys) expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect(server.privateKey).toContain('BEGIN OPENSSH PRIVATE KEY');
      // The banner's connection was closed: the sshd child that served it may take a moment to exit, more so on a
      // busy machine.
      expect(
        await eventually(
          () => server.sessionProcesses(),
          (pids) => pids.length === 0,
        ),
      ).toEqual([]);
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
    expect(await banner(server.port)).toBe('ECONNREFUSED');
  });
});
