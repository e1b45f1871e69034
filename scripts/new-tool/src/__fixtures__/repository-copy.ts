import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test as kitTest } from '@kimi-tools/test-kit';
import { REPOSITORY_ROOT } from '../repository.js';

/** What the generator reads of a repository, copied from this one. */
const REPOSITORY_FILES = [
  'pnpm-workspace.yaml',
  '.prettierrc',
  '.prettierignore',
  'docs/README.md',
  'packages/core/package.json',
];

/** The size budgets of the copy: core's, and the one the release rehearsal keeps for the package it generates. */
const SIZE_BUDGETS = `export const PACKED_SIZE_BUDGETS: Readonly<Record<string, number>> = {
  '@kimi-tools/core': 390_000,
  '@kimi-tools/file-facts': 60_000,
};
`;

/** The kit's test, with `repo`: the root of a small copy of this repository in the test's workspace. */
export const test = kitTest.extend('repo', async ({ workspace }) => {
  for (const file of REPOSITORY_FILES) {
    await workspace.write(file, await fs.readFile(path.join(REPOSITORY_ROOT, file)));
  }
  await workspace.write('scripts/release/src/size-budgets.ts', SIZE_BUDGETS);
  return workspace.workDir;
});
