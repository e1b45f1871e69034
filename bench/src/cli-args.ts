import path from 'node:path';
import { defaultDataRoot } from './harness/bench-data.js';

/** Timed runs per side and row unless `--runs` says otherwise (issue 15: at least 7). */
export const DEFAULT_RUNS = 7;

/** What `pnpm bench` was asked to do. */
export interface BenchArguments {
  names: string[];
  runs: number;
  /** The real source tree for Grep and Glob (`--corpus DIR` or KIMI_BENCH_CORPUS). */
  corpus: string | undefined;
  /** Where generated data is kept (`--data-dir DIR`, KIMI_BENCH_DATA, or the user's cache directory). */
  dataRoot: string;
}

/** The usage text, with the benchmarks there are. */
export function usage(available: readonly string[]): string {
  return [
    'Usage: pnpm bench [name...] [--runs N] [--corpus DIR] [--data-dir DIR]',
    `Benchmarks: ${available.join(', ')}`,
    `--runs N        timed runs per side and row (default ${DEFAULT_RUNS})`,
    '--corpus DIR    the real source tree Grep and Glob run on (or KIMI_BENCH_CORPUS); else a synthetic one',
    `--data-dir DIR  where generated data is kept (or KIMI_BENCH_DATA; default ${defaultDataRoot()})`,
  ].join('\n');
}

/** Parses the command line; a string is the text to print instead (help or an error). */
export function parseArguments(
  argv: readonly string[],
  available: readonly string[],
): BenchArguments | { message: string; ok: boolean } {
  const names: string[] = [];
  let runs = DEFAULT_RUNS;
  let corpus = process.env['KIMI_BENCH_CORPUS'] || undefined;
  let dataRoot = defaultDataRoot();
  const fail = (message: string) => ({ message: `${message}\n${usage(available)}`, ok: false });
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const value = argv[index + 1];
    if (argument === '--help' || argument === '-h') return { message: usage(available), ok: true };
    if (argument === '--runs') {
      runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1) return fail('--runs needs a positive integer.');
      index++;
    } else if (argument === '--corpus' || argument === '--data-dir') {
      if (value === undefined || value.startsWith('--')) return fail(`${argument} needs a directory.`);
      if (argument === '--corpus') corpus = path.resolve(value);
      else dataRoot = path.resolve(value);
      index++;
    } else if (argument === '--') {
      continue; // pnpm passes a separator through on some versions
    } else if (!available.includes(argument)) {
      return fail(`Unknown benchmark "${argument}".`);
    } else {
      names.push(argument);
    }
  }
  return {
    names: names.length > 0 ? names : [...available],
    runs,
    corpus: corpus === undefined ? undefined : path.resolve(corpus),
    dataRoot,
  };
}
