import { randomInt } from 'node:crypto';
import type { TestProject } from 'vitest/node';

/** The seed of every fast-check property in `pnpm test` and `pnpm run ci`: the same cases on every run and machine. */
const FIXED_FAST_CHECK_SEED = 1_302_013;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seed `fc.configureGlobal` gets in every test file of this run. */
    fastCheckSeed: number;
  }
}

/**
 * The seed `FAST_CHECK_SEED` asks for: unset means the fixed seed, `random` a fresh one (`pnpm test:soak`), an integer
 * that seed (to replay a run).
 */
function fastCheckSeedFrom(requested: string | undefined): number {
  if (requested === undefined || requested === '') return FIXED_FAST_CHECK_SEED;
  if (requested === 'random') return randomInt(2 ** 31);
  if (/^-?\d+$/.test(requested) && Number.isSafeInteger(Number(requested))) return Number(requested);
  throw new Error(`FAST_CHECK_SEED must be an integer or "random", not ${JSON.stringify(requested)}.`);
}

/** Chooses this run's seed once, says it when it is not the fixed one, and hands it to every test file. */
export default function provideFastCheckSeed(project: TestProject): void {
  const requested = process.env['FAST_CHECK_SEED'];
  const seed = fastCheckSeedFrom(requested);
  if (requested) {
    const label = project.name ? `${project.name}: ` : '';
    console.log(`[fast-check] ${label}seed ${seed} (replay with FAST_CHECK_SEED=${seed})`);
  }
  project.provide('fastCheckSeed', seed);
}
