import { describe, expect, it } from 'vitest';
import { isSensitivePath, sensitiveFilesWarning } from './sensitive.js';

describe('isSensitivePath', () => {
  it('matches the built-in basenames anywhere', () => {
    for (const file of [
      '/p/.env',
      '/p/.env.local',
      '/p/.env.production',
      'sub/.env',
      '/home/me/.ssh/id_rsa',
      '/home/me/.ssh/id_ed25519',
      '/home/me/.ssh/id_ecdsa',
      '/p/credentials',
      '/home/me/.aws/credentials',
      '/home/me/.gcp/credentials',
      '.aws/credentials',
    ]) {
      expect(isSensitivePath(file, [], 'linux'), file).toBe(true);
    }
  });

  it('lets the shareable templates and look-alikes through', () => {
    for (const file of [
      '/p/.env.example',
      '/p/.env.sample',
      '/p/.env.template',
      '/p/env',
      '/p/.envrc',
      '/p/id_rsa.pub',
      '/p/credentials.json',
      '/p/my.env',
      '/p/README.md',
    ]) {
      expect(isSensitivePath(file, [], 'linux'), file).toBe(false);
    }
  });

  it('is case-sensitive except on Windows', () => {
    expect(isSensitivePath('/p/.ENV', [], 'linux')).toBe(false);
    expect(isSensitivePath('/p/ID_RSA', [], 'darwin')).toBe(false);
    expect(isSensitivePath('C:\\p\\.ENV', [], 'win32')).toBe(true);
    expect(isSensitivePath('C:\\p\\ID_RSA', [], 'win32')).toBe(true);
    expect(isSensitivePath('C:\\Users\\me\\.AWS\\Credentials', [], 'win32')).toBe(true);
    expect(isSensitivePath('C:\\p\\.ENV.Example', [], 'win32')).toBe(false);
  });

  it('uses Windows separators for the basename on Windows', () => {
    expect(isSensitivePath('C:\\p\\.env', [], 'win32')).toBe(true);
    expect(isSensitivePath('C:\\p\\.env\\notes.txt', [], 'win32')).toBe(false);
  });

  it('adds runtime patterns: basename globs, or whole-path globs when they contain a slash', () => {
    expect(isSensitivePath('/p/server.pem', [], 'linux')).toBe(false);
    expect(isSensitivePath('/p/server.pem', ['*.pem'], 'linux')).toBe(true);
    expect(isSensitivePath('/p/secrets/token.txt', ['**/secrets/**'], 'linux')).toBe(true);
    expect(isSensitivePath('/p/public/token.txt', ['**/secrets/**'], 'linux')).toBe(false);
    expect(isSensitivePath('/p/.hidden-key', ['*-key'], 'linux')).toBe(true);
  });

  it('keeps the template exceptions even against runtime patterns', () => {
    expect(isSensitivePath('/p/.env.example', ['.env*'], 'linux')).toBe(false);
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
