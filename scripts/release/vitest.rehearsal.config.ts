import { packageTestConfig } from '../../vitest.shared.js';

// `pnpm release:rehearse` runs `src/release.rehearsal.ts` alone (its script names the file: the shared config's
// include adds the unit tests), with room for installs on a loaded two-core machine; the tests never assert how
// long anything took.
export default packageTestConfig({
  test: {
    include: ['src/release.rehearsal.ts'],
    testTimeout: 300_000,
    hookTimeout: 900_000,
  },
});
