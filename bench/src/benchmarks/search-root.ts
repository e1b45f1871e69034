// Which tree Grep and Glob run on: the real one given with `--corpus` (or KIMI_BENCH_CORPUS), else the synthetic one,
// said out loud — the ratios of the two differ (issue 15: nested ignore files and real file sizes).
import { stat } from 'node:fs/promises';
import { benchDataDir } from '../harness/bench-data.js';
import type { BenchContext } from '../harness/types.js';
import { COMMON_TOKEN, ensureSearchTree, RARE_TOKEN } from './search-tree.js';

/** The tree and the patterns run on it. */
export interface SearchRoot {
  root: string;
  /** Grep content mode's pattern. */
  contentPattern: string;
  /** Grep files mode's pattern. */
  filesPattern: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The corpus's workload (its README's reference figures use the same pattern). */
const CORPUS_PATTERN = 'export (default )?function \\w+\\(';

/** Which tree this run uses, in words. */
export function describeSearchTree(context: BenchContext): string {
  return context.corpus !== undefined ? `real tree ${context.corpus}` : 'synthetic tree (no --corpus given)';
}

/** The tree of this run (made if it is the synthetic one and missing); logs when it is the synthetic one. */
export async function searchRoot(context: BenchContext): Promise<SearchRoot> {
  if (context.corpus !== undefined) {
    if (!(await stat(context.corpus)).isDirectory())
      throw new Error(`--corpus ${context.corpus}: not a directory`);
    return {
      root: context.corpus,
      contentPattern: CORPUS_PATTERN,
      filesPattern: CORPUS_PATTERN,
    };
  }
  context.log(
    '  no --corpus DIR (or KIMI_BENCH_CORPUS) given: using the synthetic tree. Issue 15 measures the real one.',
  );
  return {
    root: await ensureSearchTree(await benchDataDir(context.dataRoot, 'search-tree'), context.log),
    contentPattern: escapeRegExp(RARE_TOKEN),
    filesPattern: COMMON_TOKEN,
  };
}
