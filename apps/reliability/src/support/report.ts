import { testBackendName } from '@kimi-tools/test-kit';

/**
 * Prints one line of figures, so a run's counts (kills, corrupted files, applied/refused/lost edits, cases) can be
 * read from the test output, with the backend the run was on. Prefixed so `grep '\[reliability\]'` finds them all.
 */
export function report(suite: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  console.log(`[reliability] ${suite} (${testBackendName()}): ${text}`);
}
