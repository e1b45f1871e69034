import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { readmeBlocks } from './run-snippet.js';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));

/** The READMEs whose snippets the tests of this package run, with how many `ts` blocks each has. */
const COVERED: Record<string, number> = {
  'packages/ai-sdk/README.md': 4,
  'packages/anthropic/README.md': 2,
  'packages/checkpoints/README.md': 1,
  'packages/core/README.md': 11,
  'packages/diagnostics/README.md': 2,
  'packages/mcp/README.md': 2,
  'packages/mcp-server/README.md': 1,
  'packages/media/README.md': 5,
  'packages/notebook/README.md': 1,
  'packages/openai/README.md': 2,
  'packages/patch/README.md': 1,
  'packages/read/README.md': 1,
  'packages/replace/README.md': 1,
  'packages/search/README.md': 1,
  'packages/ssh/README.md': 1,
  'packages/test-kit/README.md': 7,
  'packages/write/README.md': 2,
};

/** Every README of a workspace package and of `examples/` (the root README is the repository's own). */
function readmes(): string[] {
  const found = ['examples/README.md'];
  for (const parent of ['packages', 'apps', 'examples', 'scripts']) {
    for (const entry of readdirSync(path.join(REPOSITORY, parent), { withFileTypes: true })) {
      const readme = path.join(parent, entry.name, 'README.md');
      if (
        entry.isDirectory() &&
        readdirSync(path.join(REPOSITORY, parent, entry.name)).includes('README.md')
      ) {
        found.push(readme);
      }
    }
  }
  return found.sort();
}

it('every ts block of every README is run by a test of this package', async () => {
  const counts: Record<string, number> = {};
  for (const readme of readmes()) {
    const blocks = await readmeBlocks(readme);
    if (blocks.length > 0) counts[readme] = blocks.length;
  }
  const rule =
    "every README's ts blocks, each run by a test of apps/readme-snippets " +
    '(src/tool-readmes.e2e.test.ts for a tool package) and counted in COVERED';
  expect(counts, rule).toEqual(COVERED);
});
