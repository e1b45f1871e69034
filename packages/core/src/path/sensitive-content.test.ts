import { execFileSync } from 'node:child_process';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { PRIVATE_KEY_SCAN_BYTES } from './private-key.js';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
const PKCS8_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n';
const RSA_KEY = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n';
const ENCRYPTED_KEY =
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkq\n-----END ENCRYPTED PRIVATE KEY-----\n';

describe('*.pem: sensitive when it holds a private key', () => {
  it('refuses a key, a chain with its key appended, an encrypted key; not a certificate', async ({
    workspace,
    runtime,
  }) => {
    const files = {
      'key.pem': PKCS8_KEY,
      'rsa.pem': RSA_KEY,
      'encrypted.pem': ENCRYPTED_KEY,
      'fullchain-and-key.pem': CERTIFICATE.repeat(40) + RSA_KEY,
      'cert.pem': CERTIFICATE,
      'chain.pem': CERTIFICATE.repeat(40),
      'notes.txt': PKCS8_KEY,
    };
    await workspace.writeAll(files);
    const verdicts = Object.fromEntries(
      await Promise.all(
        Object.keys(files).map(async (name) => [name, await runtime.paths.isSensitive(workspace.at(name))]),
      ),
    );
    expect(verdicts).toEqual({
      'key.pem': true,
      'rsa.pem': true,
      'encrypted.pem': true,
      'fullchain-and-key.pem': true,
      'cert.pem': false,
      'chain.pem': false,
      // Only a `.pem` is judged on content: a key under another name is the host's to add.
      'notes.txt': false,
    });
  });

  it('judges the file a resolved path leads to, by either of its names', async ({ workspace, runtime }) => {
    await workspace.write('keys/server.pem', PKCS8_KEY);
    await workspace.symlink('server-link.txt', 'keys/server.pem');
    const resolved = await runtime.paths.resolveFile('server-link.txt', 'read');
    expect(resolved.ok && (await runtime.paths.isSensitive(resolved.path))).toBe(true);
  });

  it('takes a .pem too large to search as holding a key, and stays ordinary when missing', async ({
    workspace,
    runtime,
  }) => {
    const large = await workspace.write('bundle.pem', CERTIFICATE.repeat(PRIVATE_KEY_SCAN_BYTES / 40));
    expect(await runtime.paths.isSensitive(large)).toBe(true);
    expect(await runtime.paths.isSensitive(workspace.at('missing.pem'))).toBe(false);
    expect(await runtime.paths.isSensitive(workspace.at('missing/dir/x.pem'))).toBe(false);
  });

  it('answers at once for a FIFO or a directory named .pem', async ({ workspace, runtime }) => {
    const fifo = workspace.at('pipe.pem');
    execFileSync('mkfifo', [fifo]);
    const dir = await workspace.mkdir('dir.pem');
    expect(await runtime.paths.isSensitive(fifo)).toBe(false);
    expect(await runtime.paths.isSensitive(dir)).toBe(false);
  });

  it('keeps host additions: a host may make every .pem sensitive', async ({ workspace }) => {
    const cert = await workspace.write('cert.pem', CERTIFICATE);
    expect(await workspace.runtime({ sensitive: ['*.pem'] }).paths.isSensitive(cert)).toBe(true);
  });
});
