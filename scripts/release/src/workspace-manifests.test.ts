// The manifests of the repository's published packages, checked in `pnpm test` for what the rehearsal finds only
// after a release: what pnpm will publish of them, where core sits, and a size budget for each.
import { REPOSITORY_ROOT, sharedManifestValues } from '@kimi-tools/new-tool/repository';
import { describe, expect, test } from 'vitest';
import { DEPENDENCY_FIELDS } from './manifest.js';
import { publishedManifestProblems, SOURCE_CONDITION, withoutCondition } from './published-manifest.js';
import { PACKED_SIZE_BUDGETS } from './size-budgets.js';
import { publishedPackages } from './workspace-packages.js';

const CORE = '@kimi-tools/core';
const packages = [...(await publishedPackages(REPOSITORY_ROOT))];
const values = await sharedManifestValues(REPOSITORY_ROOT);
const expectations = { repositoryUrl: values.repositoryUrl, nodeRange: values.nodeRange, license: 'MIT' };

describe.each(packages)('%s', (name, { directory, manifest }) => {
  test('publishes the exports map without the source condition, and every other field ready', () => {
    const published = manifest.publishConfig?.['exports'];
    expect(published).toEqual(withoutCondition(manifest.exports, SOURCE_CONDITION));
    // The ranges are what pnpm publish replaces; everything else is published as it is.
    const asPublished = { ...manifest, exports: published };
    for (const field of DEPENDENCY_FIELDS) delete asPublished[field];
    expect(publishedManifestProblems(asPublished, directory, expectations)).toEqual([]);
  });

  test('has a packed size budget', () => {
    const budget = PACKED_SIZE_BUDGETS[name];
    expect(budget, `${name} needs its line in scripts/release/src/size-budgets.ts`).toBeDefined();
    expect(budget).toBeGreaterThan(0);
  });
});

describe.each(packages.filter(([name]) => name !== CORE))('%s', (_name, { manifest }) => {
  test('takes core as a peer when it is a library (one core per host), as a dependency when it is a program', () => {
    const program = manifest.bin !== undefined;
    const [field, other] = program
      ? (['dependencies', 'peerDependencies'] as const)
      : (['peerDependencies', 'dependencies'] as const);
    expect(manifest[field]?.[CORE], field).toBe('workspace:^');
    expect(manifest[other]?.[CORE], other).toBeUndefined();
  });
});
