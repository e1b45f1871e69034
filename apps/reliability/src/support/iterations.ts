/** Whether this run is a soak run (`pnpm test:soak`, or `RELIABILITY_SOAK=1`): many more iterations. */
export const SOAK = process.env['RELIABILITY_SOAK'] === '1';

/** The iteration count for this run: `bounded` in CI and plain `vitest run`, `soak` under `pnpm test:soak`. */
export function iterations(bounded: number, soak: number): number {
  return SOAK ? soak : bounded;
}
