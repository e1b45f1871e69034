import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mustRun } from './run-command.js';
import { tarballFiles } from './tarball.js';

// A name longer than ustar's 100 characters that cannot be split at a slash into its prefix: npm writes a pax header.
const LONG_NAME = `dist/${'a'.repeat(120)}.js`;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-tarball-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'tarball-sample', version: '1.0.0', files: ['dist'] }),
    'dist/index.js': 'export const a = 1;\n',
    [LONG_NAME]: 'long\n',
    'dist/deep/nested/folder/with/a/rather/long/path/that/ustar/splits/into/prefix/and/name/file.js':
      'deep\n',
  };
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, 'package', file)), { recursive: true });
    await fs.writeFile(path.join(dir, 'package', file), content);
  }
});

afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('tarballFiles', () => {
  test('lists the files of a tarball npm packed, with their bytes, long names included', async () => {
    const cache = path.join(dir, 'npm-cache');
    const output = await mustRun('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: path.join(dir, 'package'),
      env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
    });
    const [{ filename }] = JSON.parse(output) as [{ filename: string }];
    const files = tarballFiles(await fs.readFile(path.join(dir, filename)));
    expect(Object.fromEntries([...files].map(([file, content]) => [file, content.toString('utf8')]))).toEqual(
      {
        'package.json': expect.stringContaining('"tarball-sample"'),
        'dist/index.js': 'export const a = 1;\n',
        [LONG_NAME]: 'long\n',
        'dist/deep/nested/folder/with/a/rather/long/path/that/ustar/splits/into/prefix/and/name/file.js':
          'deep\n',
      },
    );
  });
});
