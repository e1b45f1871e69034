// Grep and Glob over a generated 50,000-file source tree (DESIGN §8, issue 6): Grep vs raw ripgrep with the same
// flags (goal within 1.2×), Glob `**/*.ts` vs `rg --files -g '*.ts'` and, in-process, vs tinyglobby (goal: no slower).
import { fileURLToPath } from 'node:url';
import { findRipgrep, VCS_DIRECTORIES } from '@kimi-tools/search';
import { median } from '../harness/stats.js';
import { formatMs, formatRatio } from '../harness/table.js';
import type { BenchCase, BenchContext, Benchmark, CaseResult } from '../harness/types.js';
import { COMMON_TOKEN, ensureSearchTree, TREE_FILE_COUNT } from './search-tree.js';

const CHILD = fileURLToPath(new URL('./search-child.ts', import.meta.url));
const GREP_GOAL_RATIO = 1.2;
const RARE_PATTERN = 'TODO\\(bench\\)';
const GLOB_PATTERN = '**/*.ts';

// The flags Grep passes to ripgrep (see packages/search/src/grep/ripgrep-args.ts).
const COMMON_FLAGS = ['--no-config', '--hidden', '--null', '--no-heading', '--color', 'never', '--crlf'];
const VCS_EXCLUDES = VCS_DIRECTORIES.flatMap((dir) => ['--glob', `!${dir}`]);

/**
 * Runs ripgrep from inside the tree with its output piped, as Grep does. (Writing straight to /dev/null would let
 * ripgrep stop at the first match.)
 */
function ripgrepInTree(label: string, root: string, rg: string, args: string[]): BenchCase['reference'] {
  return {
    label,
    argv: ['sh', '-c', 'cd "$0" && "$@" | cat > /dev/null', root, rg, ...args],
    okExitCodes: [0, 1],
  };
}

async function prepare(context: BenchContext): Promise<BenchCase[]> {
  const root = await ensureSearchTree(context.dataDir, context.log);
  const rg = await findRipgrep(undefined);
  if (rg === null) throw new Error('ripgrep not found: install @kimi-tools/search dependencies');
  return [
    {
      label: `Grep content, \`${RARE_PATTERN}\` (~500 lines)`,
      ours: { script: CHILD, args: [root, 'grep-content', RARE_PATTERN] },
      reference: ripgrepInTree('rg, same flags', root, rg, [
        ...COMMON_FLAGS,
        '--line-number',
        '--with-filename',
        ...VCS_EXCLUDES,
        '--',
        RARE_PATTERN,
      ]),
    },
    {
      label: `Grep files_with_matches, \`${COMMON_TOKEN}\` (5,000 files)`,
      ours: { script: CHILD, args: [root, 'grep-files', COMMON_TOKEN] },
      reference: ripgrepInTree('rg, same flags', root, rg, [
        ...COMMON_FLAGS,
        '--files-with-matches',
        '--max-columns',
        '500',
        ...VCS_EXCLUDES,
        '--',
        COMMON_TOKEN,
      ]),
    },
    {
      label: `Glob \`${GLOB_PATTERN}\` (30,000 files)`,
      ours: { script: CHILD, args: [root, 'glob', GLOB_PATTERN] },
      reference: ripgrepInTree("rg --files -g '*.ts'", root, rg, [
        '--no-config',
        '--files',
        '--hidden',
        '--glob',
        '*.ts',
        ...VCS_EXCLUDES,
      ]),
    },
  ];
}

async function notes(results: CaseResult[], context: BenchContext): Promise<string[]> {
  const lines = [
    `Tree: ${TREE_FILE_COUNT.toLocaleString('en-US')} files, ~50 MB, with \`.git\` and \`.gitignore\`. Ours is the ` +
      'whole tool call in a fresh process (finding ripgrep included); the reference is timed from spawn to exit.',
  ];
  const pairs = Math.max(context.runs, 5);
  for (const [index, probeMode] of (['probe-grep-content', 'probe-grep-files'] as const).entries()) {
    const result = results[index]!;
    const oursMs = median(result.ours.map((run) => run.wallMs));
    const referenceMs = median(result.reference.map((run) => run.wallMs));
    const [root, , pattern] = result.benchCase.ours.args;
    // The reference argv is `sh -c SCRIPT ROOT RG ...flags`: the flags start after the binary.
    const flags = result.benchCase.reference.argv.slice(5);
    const probe = await context.runOurs({
      script: CHILD,
      args: [root!, probeMode, pattern!, String(pairs), ...flags],
    });
    const { oursMedianMs, ripgrepMedianMs } = probe.details;
    const warmVerdict = oursMedianMs! <= GREP_GOAL_RATIO * ripgrepMedianMs! ? 'within' : 'NOT within';
    lines.push(
      `- ${result.benchCase.label}: ${result.ours[0]!.details.lines} output lines; fresh process ratio ` +
        `${formatRatio(oursMs, referenceMs)} (${oursMs <= GREP_GOAL_RATIO * referenceMs ? 'within' : 'NOT within'} ` +
        `${GREP_GOAL_RATIO}×). In one warm process, ${pairs} alternating pairs: Grep.call ` +
        `${formatMs(oursMedianMs!)}, ripgrep spawned with the same flags ${formatMs(ripgrepMedianMs!)}; ratio ` +
        `${formatRatio(oursMedianMs, ripgrepMedianMs)}, ${warmVerdict} the ${GREP_GOAL_RATIO}× goal.`,
    );
  }
  const root = results[2]!.benchCase.ours.args[0]!;
  const probe = await context.runOurs({
    script: CHILD,
    args: [root, 'probe-glob', GLOB_PATTERN, String(pairs)],
  });
  const { oursMedianMs, tinyglobbyMedianMs, oursTotal, tinyglobbyTotal } = probe.details;
  lines.push(
    `- Glob vs tinyglobby in one warm process, ${pairs} alternating pairs: Glob ${formatMs(oursMedianMs!)} ` +
      `(${oursTotal} files), tinyglobby ${formatMs(tinyglobbyMedianMs!)} (${tinyglobbyTotal} files); ratio ` +
      `${formatRatio(oursMedianMs, tinyglobbyMedianMs)}, ` +
      `${oursMedianMs! <= tinyglobbyMedianMs! ? 'no slower than' : 'SLOWER than'} tinyglobby.`,
  );
  return lines;
}

const searchBenchmark: Benchmark = {
  title: 'Grep and Glob over a 50,000-file source tree',
  description:
    '`Grep.call` (ripgrep plus parsing, sorting, sensitive-file filtering, pagination) vs ripgrep run with the same ' +
    'flags, output piped; `Glob.call` with `include_dirs: false` (pattern-pruned walk, ignore files, sort) vs ' +
    "`rg --files -g '*.ts'`.",
  prepare,
  notes,
};

export default searchBenchmark;
