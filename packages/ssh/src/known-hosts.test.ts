import { execFile } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { judgeHostKey, knownHostName, namesHost, parseKnownHosts } from './known-hosts.js';
import { parseKeyFields, type PublicKey } from './public-key.js';

const run = promisify(execFile);

/** A fresh ed25519 public key made by ssh-keygen, as its `.pub` line and parsed. */
async function makeKey(): Promise<{ line: string; key: PublicKey }> {
  const dir = await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-key-'));
  try {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'key')]);
    const line = (await nodeFs.readFile(path.join(dir, 'key.pub'), 'utf8')).trim();
    const [type, base64] = line.split(' ');
    return { line, key: parseKeyFields(type, base64)! };
  } finally {
    await nodeFs.rm(dir, { recursive: true, force: true });
  }
}

describe('knownHostName', () => {
  test('is the bare host on port 22 and [host]:port on any other, lower-cased, as OpenSSH looks it up', () => {
    expect(knownHostName('Example.ORG', 22)).toBe('example.org');
    expect(knownHostName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });
});

describe('namesHost', () => {
  test('matches comma-separated patterns with * and ?, case-insensitively', () => {
    expect(namesHost('alpha,beta.example.org', 'beta.example.org')).toBe(true);
    expect(namesHost('*.example.org', 'build.example.org')).toBe(true);
    expect(namesHost('*.example.org', 'example.org')).toBe(false);
    expect(namesHost('host?', 'host7')).toBe(true);
    expect(namesHost('host?', 'host77')).toBe(false);
    expect(namesHost('BUILD.example.org', 'build.example.org')).toBe(true);
  });

  test('a matching negated pattern rules the line out', () => {
    expect(namesHost('*.example.org,!secret.example.org', 'secret.example.org')).toBe(false);
    expect(namesHost('*.example.org,!secret.example.org', 'open.example.org')).toBe(true);
  });

  test('a port form matches only its own port, and the bare name only port 22', () => {
    expect(namesHost('[127.0.0.1]:2222', knownHostName('127.0.0.1', 2222))).toBe(true);
    expect(namesHost('[127.0.0.1]:2222', knownHostName('127.0.0.1', 2223))).toBe(false);
    expect(namesHost('127.0.0.1', knownHostName('127.0.0.1', 2222))).toBe(false);
    expect(namesHost('127.0.0.1', knownHostName('127.0.0.1', 22))).toBe(true);
    expect(namesHost('[127.0.0.1]:*', knownHostName('127.0.0.1', 2222))).toBe(true);
  });

  test('matches the names ssh-keygen -H hashed, and only those', async () => {
    const { line } = await makeKey();
    const dir = await nodeFs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-known-'));
    try {
      const file = path.join(dir, 'known_hosts');
      await nodeFs.writeFile(file, `[build.example.org]:2222 ${line}\nplain.example.org ${line}\n`);
      await run('ssh-keygen', ['-H', '-f', file]);
      const [first, second] = parseKnownHosts(await nodeFs.readFile(file, 'utf8'), file);
      expect(first!.hosts).toMatch(/^\|1\|/);
      expect(namesHost(first!.hosts, '[build.example.org]:2222')).toBe(true);
      expect(namesHost(first!.hosts, 'build.example.org')).toBe(false);
      expect(namesHost(second!.hosts, 'plain.example.org')).toBe(true);
      expect(namesHost(second!.hosts, 'other.example.org')).toBe(false);
    } finally {
      await nodeFs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('parseKnownHosts and judgeHostKey', () => {
  test('known, changed, unknown and revoked, with the lines that decided', async () => {
    const [good, other, revoked] = [await makeKey(), await makeKey(), await makeKey()];
    const body = (line: string) => line.split(' ').slice(0, 2).join(' ');
    const text = [
      '# a comment',
      '',
      `host.example.org ${body(good.line)} a comment with spaces`,
      `moved.example.org ${body(other.line)}`,
      `@revoked * ${body(revoked.line)}`,
      `@cert-authority *.example.org ${body(good.line)}`,
      'broken.example.org ssh-ed25519 not-base64!',
      `mismatched.example.org ssh-rsa ${body(good.line).split(' ')[1]}`,
    ].join('\n');
    const lines = parseKnownHosts(text, '/k');
    expect(lines.map((line) => [line.marker ?? '', line.hosts, line.source])).toEqual([
      ['', 'host.example.org', '/k:3'],
      ['', 'moved.example.org', '/k:4'],
      ['revoked', '*', '/k:5'],
      ['cert-authority', '*.example.org', '/k:6'],
    ]);
    expect(judgeHostKey(lines, 'host.example.org', good.key)).toEqual({ kind: 'known', source: '/k:3' });
    expect(judgeHostKey(lines, 'moved.example.org', good.key)).toEqual({
      kind: 'changed',
      sources: ['/k:4'],
    });
    // A certificate authority's key is not the host's own key.
    expect(judgeHostKey(lines, 'new.example.org', good.key)).toEqual({ kind: 'unknown' });
    expect(judgeHostKey(lines, 'host.example.org', revoked.key)).toEqual({ kind: 'revoked', source: '/k:5' });
  });
});
