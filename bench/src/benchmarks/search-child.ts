// Child side of the search benchmark: one Grep or Glob call on the tree, or (--probe) Glob against tinyglobby.
// Usage: search-child.ts ROOT grep-content|grep-files|glob PATTERN
//        search-child.ts ROOT probe-glob|probe-grep-content|probe-grep-files PATTERN PAIRS [RG_ARGS...]
// The probes time PAIRS pairs in this one warm process and report medians: Glob, then tinyglobby with the closest
// options (dot files, no symlink following, `.git` and `node_modules` skipped; tinyglobby reads no ignore files); or
// Grep.call, then ripgrep spawned from here with RG_ARGS (the flags Grep uses), its output read and dropped.
import { spawn } from 'node:child_process';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { findRipgrep, Glob, Grep } from '@kimi-tools/search';
import { glob as tinyglobby } from 'tinyglobby';
import { measureInChild } from '../harness/child-report.js';
import { median } from '../harness/stats.js';

const [root, mode, pattern, pairsArgument, ...ripgrepArgs] = process.argv.slice(2);
if (root === undefined || mode === undefined || pattern === undefined) {
  throw new Error('usage: search-child.ts ROOT grep-content|grep-files|glob|probe-glob PATTERN [PAIRS]');
}
const runtime = createRuntime({ workDir: root, approval: yoloApproval() });

function lineCount(output: unknown): number {
  return typeof output === 'string' && output.length > 0 ? output.split('\n').length : 0;
}

async function runGrep(outputMode: 'content' | 'files_with_matches'): Promise<Record<string, number>> {
  const result = await new Grep(runtime).call({ pattern, output_mode: outputMode, head_limit: 0 });
  if (result.isError) throw new Error(result.message);
  return { lines: lineCount(result.output) };
}

async function runGlob(): Promise<Record<string, number>> {
  const result = await new Glob(runtime).call({ pattern, include_dirs: false });
  if (result.isError) throw new Error(result.message);
  return { total: Number(result.extras?.['total'] ?? 0) };
}

function runTinyglobby(): Promise<string[]> {
  return tinyglobby(pattern!, {
    cwd: root,
    dot: true,
    followSymbolicLinks: false,
    onlyFiles: true,
    ignore: ['**/.git/**', '**/node_modules/**'],
  });
}

async function probe(pairs: number): Promise<Record<string, number>> {
  const glob = new Glob(runtime);
  await glob.call({ pattern, include_dirs: false });
  await runTinyglobby();
  const ours: number[] = [];
  const theirs: number[] = [];
  let oursTotal = 0;
  let theirsTotal = 0;
  for (let pair = 0; pair < pairs; pair++) {
    let started = performance.now();
    const result = await glob.call({ pattern, include_dirs: false });
    ours.push(performance.now() - started);
    oursTotal = Number(result.extras?.['total'] ?? 0);
    started = performance.now();
    theirsTotal = (await runTinyglobby()).length;
    theirs.push(performance.now() - started);
  }
  return {
    oursMedianMs: median(ours),
    tinyglobbyMedianMs: median(theirs),
    oursTotal,
    tinyglobbyTotal: theirsTotal,
  };
}

function runRawRipgrep(binary: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ripgrepArgs, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => {});
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function probeGrep(
  outputMode: 'content' | 'files_with_matches',
  pairs: number,
): Promise<Record<string, number>> {
  const grep = new Grep(runtime);
  const binary = await findRipgrep(undefined);
  if (binary === null) throw new Error('ripgrep not found');
  const call = () => grep.call({ pattern, output_mode: outputMode, head_limit: 0 });
  await call();
  await runRawRipgrep(binary);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    let started = performance.now();
    await call();
    ours.push(performance.now() - started);
    started = performance.now();
    await runRawRipgrep(binary);
    theirs.push(performance.now() - started);
  }
  return { oursMedianMs: median(ours), ripgrepMedianMs: median(theirs) };
}

await measureInChild(() => {
  switch (mode) {
    case 'grep-content':
      return runGrep('content');
    case 'grep-files':
      return runGrep('files_with_matches');
    case 'glob':
      return runGlob();
    case 'probe-glob':
      return probe(Number(pairsArgument));
    case 'probe-grep-content':
      return probeGrep('content', Number(pairsArgument));
    case 'probe-grep-files':
      return probeGrep('files_with_matches', Number(pairsArgument));
    default:
      throw new Error(`unknown mode ${mode}`);
  }
});
