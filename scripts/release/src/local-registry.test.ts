import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { fetchPackument } from './registry-client.js';
import { runCommand } from './run-command.js';

let dir: string;
let registry: LocalRegistry;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-registry-'));
  registry = await startLocalRegistry(path.join(dir, 'registry'));
  await fs.mkdir(path.join(dir, 'sample'));
  await fs.writeFile(
    path.join(dir, 'sample', 'package.json'),
    JSON.stringify({ name: '@kimi-tools/registry-sample', version: '1.0.0' }),
  );
});

afterAll(async () => {
  await registry.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** `npm publish` of the sample package to the registry, with `npmrc` as the user config. */
async function publish(npmrc: string) {
  await fs.writeFile(path.join(dir, 'user.npmrc'), npmrc);
  return runCommand('npm', ['publish', `--registry=${registry.url}`], {
    cwd: path.join(dir, 'sample'),
    env: {
      ...process.env,
      npm_config_userconfig: path.join(dir, 'user.npmrc'),
      npm_config_cache: path.join(dir, 'npm-cache'),
      npm_config_update_notifier: 'false',
    },
  });
}

describe('startLocalRegistry', () => {
  test('listens on the loopback interface and proxies nothing: a package it was not given is not found', async () => {
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(fetchPackument(registry.url, 'zod')).rejects.toThrow(`${registry.url} has no zod (404)`);
  });

  test('takes a package from the publisher and refuses one from anybody else', async () => {
    const stranger = await publish(registry.publisherNpmrc.replace(/=.*/, '=not-the-token'));
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toMatch(/E401|E403/);
    expect(stranger.stderr).not.toContain(registry.token);

    const published = await publish(registry.publisherNpmrc);
    expect(published.stderr).not.toMatch(/npm error/);
    expect(published.code).toBe(0);
    const packument = await fetchPackument(registry.url, '@kimi-tools/registry-sample');
    expect(packument['dist-tags']).toEqual({ latest: '1.0.0' });
  });
});
