import { describe, expect, it } from 'vitest';
import { PathPolicy } from './path-policy.js';
import { SENSITIVE_FILES, sensitiveFilesWarning } from './sensitive.js';
import { localFileSystem } from '../fs/local-file-system.js';

function policy(sensitive: string[] = [], platform: NodeJS.Platform = 'linux'): PathPolicy {
  const workDir = platform === 'win32' ? 'C:\\p' : '/p';
  return new PathPolicy(
    { workDir, additionalDirs: [], outside: 'allow', deny: [], sensitive },
    { fs: localFileSystem, platform, homeDir: platform === 'win32' ? 'C:\\Users\\me' : '/home/me' },
  );
}

/**
 * One case per entry of the built-in table (docs/paths.md#sensitive-files): names it must catch, and look-alikes it
 * must let through. None of these paths exists, so only names decide (`*.pem` is judged on content in
 * sensitive-content.test.ts).
 */
const CASES: Readonly<Record<string, { sensitive: string[]; ordinary: string[] }>> = {
  '.env': {
    sensitive: ['/p/.env', 'sub/.env', '/home/me/.env'],
    ordinary: ['/p/env', '/p/.envrc', '/p/my.env', '/p/.env/notes.txt', '/p/.environment'],
  },
  '.env.*': {
    sensitive: ['/p/.env.local', '/p/.env.production', '/p/a/.env.development.local'],
    ordinary: ['/p/.env.example', '/p/.env.sample', '/p/.env.template', '/p/env.local'],
  },
  '.npmrc': { sensitive: ['/p/.npmrc', '/home/me/.npmrc'], ordinary: ['/p/npmrc', '/p/.npmrc.md'] },
  '.netrc': { sensitive: ['/home/me/.netrc'], ordinary: ['/p/netrc', '/p/.netrc.txt'] },
  _netrc: { sensitive: ['/home/me/_netrc'], ordinary: ['/p/_netrc.txt'] },
  '.git-credentials': { sensitive: ['/home/me/.git-credentials'], ordinary: ['/p/git-credentials.md'] },
  '.pgpass': { sensitive: ['/home/me/.pgpass'], ordinary: ['/p/pgpass'] },
  '.pypirc': { sensitive: ['/home/me/.pypirc'], ordinary: ['/p/pypirc.example'] },
  credentials: {
    sensitive: ['/p/credentials', '/home/me/.aws/credentials'],
    ordinary: ['/p/credentials.json', '/p/credentials/readme.md'],
  },
  '.aws/credentials': {
    sensitive: ['/home/me/.aws/credentials', '.aws/credentials'],
    ordinary: ['/p/aws/config'],
  },
  '.gcp/credentials': { sensitive: ['/home/me/.gcp/credentials'], ordinary: ['/p/gcp/credentials.md'] },
  '.docker/config.json': {
    sensitive: ['/home/me/.docker/config.json', '/p/.docker/config.json'],
    ordinary: ['/p/config.json', '/p/docker/config.json', '/p/.docker/daemon.json'],
  },
  '.kube/config': {
    sensitive: ['/home/me/.kube/config', '.kube/config'],
    ordinary: ['/p/config', '/p/kube/config', '/p/.kube/cache/x'],
  },
  '.config/gh/hosts.yml': {
    sensitive: ['/home/me/.config/gh/hosts.yml'],
    ordinary: ['/p/hosts.yml', '/p/.config/gh/config.yml', '/p/config/gh/hosts.yml'],
  },
  '*.key': {
    sensitive: ['/p/server.key', '/p/tls/.key', '/p/a.b.key'],
    ordinary: ['/p/key', '/p/server.key.md', '/p/keys.txt'],
  },
  '*.p12': { sensitive: ['/p/cert.p12'], ordinary: ['/p/p12.txt'] },
  '*.pfx': { sensitive: ['/p/cert.pfx'], ordinary: ['/p/pfx.md'] },
  'id_{rsa,dsa,ecdsa,ed25519}*': {
    sensitive: [
      '/home/me/.ssh/id_rsa',
      '/home/me/.ssh/id_dsa',
      '/home/me/.ssh/id_ecdsa',
      '/home/me/.ssh/id_ed25519',
      '/home/me/.ssh/id_ed25519_sk',
      '/home/me/.ssh/id_ecdsa_sk',
      '/home/me/.ssh/id_rsa_github',
      '/home/me/.ssh/id_rsa.old',
      '/p/deploy/id_ed25519-work',
    ],
    ordinary: [
      '/home/me/.ssh/id_rsa.pub',
      '/home/me/.ssh/id_dsa.pub',
      '/home/me/.ssh/id_ecdsa.pub',
      '/home/me/.ssh/id_ed25519.pub',
      '/home/me/.ssh/id_ed25519_sk.pub',
      '/home/me/.ssh/id_rsa-cert.pub',
      '/home/me/.ssh/known_hosts',
      '/home/me/.ssh/config',
      '/p/my_id_rsa_notes.txt',
    ],
  },
};

describe('the built-in sensitive files', () => {
  it('has a case for every entry of the table, and nothing else', () => {
    const patterns = SENSITIVE_FILES.filter((entry) => !entry.privateKeyOnly).map((entry) => entry.pattern);
    expect(Object.keys(CASES).sort()).toEqual([...patterns].sort());
  });

  for (const [entry, { sensitive, ordinary }] of Object.entries(CASES)) {
    it(`${entry}: catches ${sensitive.length} names, lets ${ordinary.length} look-alikes through`, async () => {
      const paths = policy();
      for (const file of sensitive) expect(await paths.isSensitive(file), file).toBe(true);
      for (const file of ordinary) expect(await paths.isSensitive(file), file).toBe(false);
    });
  }

  it('is case-sensitive except on Windows', async () => {
    expect(await policy().isSensitive('/p/.ENV')).toBe(false);
    expect(await policy([], 'darwin').isSensitive('/p/ID_RSA')).toBe(false);
    const windows = policy([], 'win32');
    expect(await windows.isSensitive('C:\\p\\.ENV')).toBe(true);
    expect(await windows.isSensitive('C:\\p\\ID_RSA')).toBe(true);
    expect(await windows.isSensitive('C:\\p\\Server.KEY')).toBe(true);
    expect(await windows.isSensitive('C:\\Users\\me\\.AWS\\Credentials')).toBe(true);
    expect(await windows.isSensitive('C:\\Users\\me\\.Docker\\Config.json')).toBe(true);
    expect(await windows.isSensitive('C:\\p\\.ENV.Example')).toBe(false);
    expect(await windows.isSensitive('C:\\Users\\me\\.ssh\\ID_RSA.PUB')).toBe(false);
  });

  it('takes the last name of a path, whether it has a directory or a trailing separator', async () => {
    const paths = policy();
    expect(await paths.isSensitive('.env')).toBe(true);
    expect(await paths.isSensitive('/p/.env/')).toBe(true);
    expect(await paths.isSensitive('/p/.env//')).toBe(true);
    expect(await paths.isSensitive('/p/.env/notes.txt')).toBe(false);
    expect(await paths.isSensitive('/p/keys/id_rsa')).toBe(true);
  });

  it('uses Windows separators for the basename and the path endings on Windows', async () => {
    const windows = policy([], 'win32');
    expect(await windows.isSensitive('C:\\p\\.env')).toBe(true);
    expect(await windows.isSensitive('C:\\p\\.env\\notes.txt')).toBe(false);
    expect(await windows.isSensitive('C:\\Users\\me\\.kube\\config')).toBe(true);
  });
});

describe('host additions', () => {
  it('adds basename globs, or whole-path globs when they contain a slash', async () => {
    expect(await policy().isSensitive('/p/server.crt')).toBe(false);
    expect(await policy(['*.crt']).isSensitive('/p/server.crt')).toBe(true);
    expect(await policy(['**/secrets/**']).isSensitive('/p/secrets/token.txt')).toBe(true);
    expect(await policy(['**/secrets/**']).isSensitive('/p/public/token.txt')).toBe(false);
    expect(await policy(['*-key']).isSensitive('/p/.hidden-key')).toBe(true);
  });

  it('make a name sensitive that a built-in exception lets through', async () => {
    expect(await policy(['*.pub']).isSensitive('/home/me/.ssh/id_rsa.pub')).toBe(true);
  });

  it('never catch the shareable .env templates', async () => {
    expect(await policy(['.env*']).isSensitive('/p/.env.example')).toBe(false);
  });
});

describe('sensitiveFilesWarning', () => {
  it('names one file', () => {
    expect(sensitiveFilesWarning(['/p/.env'])).toBe(
      'Skipped 1 sensitive file(s) (.env) to protect secrets. These files may contain credentials or private keys.',
    );
  });

  it('sorts and deduplicates basenames but counts every file', () => {
    expect(sensitiveFilesWarning(['/p/b/.env', '/p/id_rsa', '/p/a/.env'])).toBe(
      'Skipped 3 sensitive file(s) (.env, id_rsa) to protect secrets. These files may contain credentials or private keys.',
    );
  });

  it('shows exactly 5 names without a summary', () => {
    expect(sensitiveFilesWarning(['/p/e', '/p/d', '/p/c', '/p/b', '/p/a'])).toBe(
      'Skipped 5 sensitive file(s) (a, b, c, d, e) to protect secrets. These files may contain credentials or private keys.',
    );
  });

  it('cuts after 5 unique names and reports the total', () => {
    const files = [
      '/p/.env.g',
      '/p/.env.f',
      '/p/.env.e',
      '/p/.env.d',
      '/p/.env.c',
      '/p/.env.b',
      '/p/.env.a',
      '/q/.env.a',
    ];
    expect(sensitiveFilesWarning(files)).toBe(
      'Skipped 8 sensitive file(s) (.env.a, .env.b, .env.c, .env.d, .env.e, ... (7 files total)) to protect secrets. ' +
        'These files may contain credentials or private keys.',
    );
  });

  it('counts a path listed twice once', () => {
    expect(sensitiveFilesWarning(['/p/.env', '/p/.env'])).toBe(
      'Skipped 1 sensitive file(s) (.env) to protect secrets. These files may contain credentials or private keys.',
    );
  });
});
