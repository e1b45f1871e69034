import { failsWhere, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './read-file.js';

const SECRET = 'API_KEY=sk-live-0123456789\n';

describe('ReadFile: a hard link to a sensitive file', () => {
  failsWhere(it, 'sftp-hard-links')(
    'is refused like the file itself, whatever its name',
    async ({ workspace, runtime }) => {
      await workspace.write('.env', SECRET);
      await workspace.link('notes.txt', '.env');
      const result = await new ReadFile(runtime).call({ path: 'notes.txt' });
      expect(result).toMatchObject({
        isError: true,
        message:
          '`notes.txt` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.',
        brief: 'Sensitive file',
      });
      expect(JSON.stringify(result)).not.toContain('sk-live');
    },
  );

  it('reads a .pem certificate, refuses a .pem private key', async ({ workspace, runtime }) => {
    await workspace.write('cert.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    await workspace.write('key.pem', '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n');
    const tool = new ReadFile(runtime);
    expect((await tool.call({ path: 'cert.pem' })).isError).toBe(false);
    expect(await tool.call({ path: 'key.pem' })).toMatchObject({ isError: true, brief: 'Sensitive file' });
  });
});
