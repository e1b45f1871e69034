import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildHoldsVersion, writeChangeset } from './release-round.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-release-round-'));
});

afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function write(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await fs.writeFile(path.join(dir, file), content);
}

describe('writeChangeset', () => {
  test('writes what `pnpm changeset` writes: the bumps in front matter, then the summary', async () => {
    await fs.mkdir(path.join(dir, '.changeset'));
    await writeChangeset(
      dir,
      'read-fix',
      { '@kimi-tools/read': 'patch', '@kimi-tools/core': 'minor' },
      'A fix.',
    );
    expect(await fs.readFile(path.join(dir, '.changeset/read-fix.md'), 'utf8')).toBe(
      "---\n'@kimi-tools/read': patch\n'@kimi-tools/core': minor\n---\n\nA fix.\n",
    );
  });
});

describe('buildHoldsVersion', () => {
  test('is true when a source module imports the package.json above it', async () => {
    await write('src/index.ts', "export * from './server/create.js';\n");
    await write(
      'src/server/create.ts',
      "import { version } from '../../package.json';\nexport { version };\n",
    );
    expect(await buildHoldsVersion(dir)).toBe(true);
  });

  test('is false when only a test imports it, or nothing does', async () => {
    await write('src/index.ts', "export const name = 'package.json';\n");
    await write('src/index.test.ts', "import manifest from '../package.json';\n");
    expect(await buildHoldsVersion(dir)).toBe(false);
  });
});
