import fc from 'fast-check';
import { expect, inject, it } from 'vitest';

// The shared test setup seeds fast-check for every test file of this package (fixed in `pnpm test` and CI, random
// and printed in `pnpm test:soak`): check that the seed really reaches the fast-check instance the suites import.
it('runs every property of this file with the seed chosen for the run', () => {
  const seed = inject('fastCheckSeed');
  expect(Number.isSafeInteger(seed)).toBe(true);
  expect(fc.readConfigureGlobal().seed).toBe(seed);
  expect(fc.sample(fc.integer(), 20)).toEqual(fc.sample(fc.integer(), 20));
});
