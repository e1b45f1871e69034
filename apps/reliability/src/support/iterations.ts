import { testBackendName } from '@kimi-tools/test-kit';

/** Whether this run is a soak run (`pnpm test:soak`, or `RELIABILITY_SOAK=1`): many more iterations. */
export const SOAK = process.env['RELIABILITY_SOAK'] === '1';

/**
 * The iteration count for this run: `bounded` in CI and plain `vitest run` (`overSsh` instead on the SSH backend,
 * where every call costs round trips, when given), `soak` under `pnpm test:soak` on every backend.
 */
export function iterations(bounded: number, soak: number, { overSsh }: { overSsh?: number } = {}): number {
  if (SOAK) return soak;
  return overSsh !== undefined && testBackendName() === 'ssh' ? overSsh : bounded;
}
