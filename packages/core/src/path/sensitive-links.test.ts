import fs from 'node:fs/promises';
import path from 'node:path';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { PathPolicy } from './path-policy.js';
import type { FileStats } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';

const SECRET = 'API_KEY=sk-live-0123456789\n';
const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n';
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';

/** A policy on the workspace whose home directory is `home` (so tests can play `~/.aws/credentials`). */
function policyWithHome(workDir: string, home: string): PathPolicy {
  return new PathPolicy(
    { workDir, additionalDirs: [], outside: 'allow', deny: [], sensitive: [] },
    { fs: localFileSystem, homeDir: home },
  );
}

/** Sets a directory's times an hour back, so its listing is old enough to be kept. */
async function age(dir: string): Promise<void> {
  const past = new Date(Date.now() - 3_600_000);
  await fs.utimes(dir, past, past);
}

describe('a hard link is as sensitive as the file it shares', () => {
  it('next to .env, under any name, resolved or not', async ({ workspace, runtime }) => {
    const env = await workspace.write('.env', SECRET);
    const notes = workspace.at('notes.txt');
    await fs.link(env, notes);
    expect(await runtime.paths.isSensitive(notes)).toBe(true);
    const resolved = await runtime.paths.resolveFile('notes.txt', 'read');
    expect(resolved.ok && (await runtime.paths.isSensitive(resolved.path))).toBe(true);
  });

  it('below the .env it shares, and to a .env in a workspace directory', async ({ workspace }) => {
    const env = await workspace.write('.env', SECRET);
    const shared = await workspace.write(workspace.outside('lib/.env.local'), SECRET);
    const deep = workspace.at('docs/guide/chapter-1/notes.md');
    await workspace.mkdir('docs/guide/chapter-1');
    await fs.link(env, deep);
    const fromShared = workspace.at('docs/readme.txt');
    await fs.link(shared, fromShared);
    const runtime = workspace.runtime({ additionalDirs: [workspace.outside('lib')] });
    await runtime.paths.workspaceRoots();
    expect(await runtime.paths.isSensitive(deep)).toBe(true);
    expect(await runtime.paths.isSensitive(fromShared)).toBe(true);
  });

  it('to credentials in their usual places under home', async ({ workspace }) => {
    const home = workspace.outside('home');
    const aws = await workspace.write(path.join(home, '.aws/credentials'), SECRET);
    const key = await workspace.write(path.join(home, '.ssh/id_ed25519'), PRIVATE_KEY);
    const npmrc = await workspace.write(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=x\n');
    await fs.link(aws, workspace.at('aws.txt'));
    await fs.link(key, workspace.at('key.txt'));
    await fs.link(npmrc, workspace.at('npm.txt'));
    const paths = policyWithHome(workspace.workDir, home);
    expect(await paths.isSensitive(workspace.at('aws.txt'))).toBe(true);
    expect(await paths.isSensitive(workspace.at('key.txt'))).toBe(true);
    expect(await paths.isSensitive(workspace.at('npm.txt'))).toBe(true);
  });

  it('to a .pem by its content: a key is sensitive, a certificate is not', async ({ workspace, runtime }) => {
    const key = await workspace.write('tls/server.pem', PRIVATE_KEY);
    const cert = await workspace.write('tls/cert.pem', CERTIFICATE);
    await fs.link(key, workspace.at('tls/server.txt'));
    await fs.link(cert, workspace.at('tls/cert.txt'));
    expect(await runtime.paths.isSensitive(workspace.at('tls/server.txt'))).toBe(true);
    expect(await runtime.paths.isSensitive(workspace.at('tls/cert.txt'))).toBe(false);
  });

  it('to a host-added pattern', async ({ workspace }) => {
    const token = await workspace.write('token.secret', SECRET);
    await fs.link(token, workspace.at('token.txt'));
    expect(
      await workspace.runtime({ sensitive: ['*.secret'] }).paths.isSensitive(workspace.at('token.txt')),
    ).toBe(true);
    expect(await workspace.runtime().paths.isSensitive(workspace.at('token.txt'))).toBe(false);
  });

  it('leaves ordinary multiply-linked files alone (a package store links thousands)', async ({
    workspace,
    runtime,
  }) => {
    const original = await workspace.write('store/lib.js', 'export {};\n');
    await workspace.write('.env', SECRET);
    await workspace.mkdir('node_modules/lib');
    await fs.link(original, workspace.at('node_modules/lib/lib.js'));
    expect(await runtime.paths.isSensitive(workspace.at('node_modules/lib/lib.js'))).toBe(false);
    expect(await runtime.paths.isSensitive(original)).toBe(false);
  });

  it('sees links made and removed after an earlier answer, even in a directory listed long ago', async ({
    workspace,
    runtime,
  }) => {
    const a = await workspace.write('a.txt', SECRET);
    await fs.link(a, workspace.at('b.txt'));
    await age(workspace.workDir);
    expect(await runtime.paths.isSensitive(a)).toBe(false);
    // The directory changes: its listing, kept from the answer above, must not be used again.
    await fs.link(a, workspace.at('.env'));
    expect(await runtime.paths.isSensitive(a)).toBe(true);
    await age(workspace.workDir);
    expect(await runtime.paths.isSensitive(a)).toBe(true);
    await fs.rm(workspace.at('.env'));
    expect(await runtime.paths.isSensitive(a)).toBe(false);
    // A rename keeps the entry count and the inode: still seen.
    await age(workspace.workDir);
    expect(await runtime.paths.isSensitive(a)).toBe(false);
    await fs.rename(workspace.at('b.txt'), workspace.at('.env.production'));
    expect(await runtime.paths.isSensitive(a)).toBe(true);
  });

  it('keeps each runtime to its own patterns', async ({ workspace }) => {
    const token = await workspace.write('token.secret', SECRET);
    await fs.link(token, workspace.at('token.txt'));
    await age(workspace.workDir);
    const strict = workspace.runtime({ sensitive: ['*.secret'] });
    const plain = workspace.runtime();
    expect(await strict.paths.isSensitive(workspace.at('token.txt'))).toBe(true);
    expect(await plain.paths.isSensitive(workspace.at('token.txt'))).toBe(false);
    expect(await strict.paths.isSensitive(workspace.at('token.txt'))).toBe(true);
  });
});

describe('what the name and the stats settle without looking (isSensitiveKnown)', () => {
  it('answers for a name and a single-link file, and leaves several links and private keys to isSensitive', async ({
    workspace,
    runtime,
  }) => {
    const env = await workspace.write('.env', SECRET);
    const plain = await workspace.write('a.txt', 'text\n');
    const notes = workspace.at('notes.txt');
    await fs.link(env, notes);
    const key = await workspace.write('tls.pem', PRIVATE_KEY);
    const known = (file: string, stats: FileStats | null | undefined) =>
      runtime.paths.isSensitiveKnown(file, stats);
    expect(known(env, undefined)).toBe(true);
    // The local disk counts links: an ordinary name is settled by its stats only.
    expect(known(plain, undefined)).toBeUndefined();
    expect(known(plain, await localFileSystem.lstat(plain))).toBe(false);
    expect(known(workspace.at('gone.txt'), null)).toBe(false);
    const notesStats = await localFileSystem.lstat(notes);
    expect(known(notes, notesStats)).toBeUndefined();
    expect(await runtime.paths.isSensitive(notes, notesStats)).toBe(true);
    const keyStats = await localFileSystem.lstat(key);
    expect(known(key, keyStats)).toBeUndefined();
    expect(await runtime.paths.isSensitive(key, keyStats)).toBe(true);
  });
});
