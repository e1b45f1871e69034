// `pnpm bench [name...] [--runs N] [--corpus DIR] [--data-dir DIR]`: runs the registered benchmarks (all of them when
// no name is given), each row's samples fresh processes unless it says "in-call", and prints the tables.
import os from 'node:os';
import { DEFAULT_RUNS, parseArguments } from './cli-args.js';
import { benchDataDir } from './harness/bench-data.js';
import { extraCertificatesNote } from './harness/extra-certificates.js';
import { ProcessRunner } from './harness/process-runner.js';
import { resultTable, runBenchmark } from './harness/run-benchmark.js';
import type { BenchContext, RowResult } from './harness/types.js';
import { BENCHMARKS } from './registry.js';

function header(runner: ProcessRunner, runs: number, corpus: string | undefined, dataRoot: string): string {
  const lines = [
    `# @kimi-tools benchmarks — Node ${process.version}, ${process.platform}/${process.arch}, ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg()[0]!.toFixed(1)} at start`,
    '',
    `Every "whole process" sample is a fresh process, timed from spawn to exit with its output drained through a ` +
      `pipe; ours and the reference take turns (${runs} runs each after one untimed warm-up). Times: median ` +
      '(min–max). "in-call" rows are timed inside one warm process.',
    'Peak RSS: of every Node process, its VmHWM read at exit by an `--import` preload (exact; VmHWM starts afresh at ' +
      'exec); of other commands, ' +
      (runner.measuresCommands
        ? "GNU time's %M (wait4's ru_maxrss; a pipeline shows its largest process)."
        : 'n/a — /usr/bin/time (GNU time) is not installed.') +
      ' CPU: user + system time of the process.',
    `Search tree: ${corpus ?? 'synthetic (give --corpus DIR or KIMI_BENCH_CORPUS for the real one)'}. Data: ${dataRoot}.`,
  ];
  const certificates = extraCertificatesNote();
  if (certificates !== undefined) lines.push(certificates);
  if (runs < DEFAULT_RUNS) lines.push(`Only ${runs} runs: issue 15's figures take at least ${DEFAULT_RUNS}.`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2), Object.keys(BENCHMARKS));
  if ('message' in parsed) {
    (parsed.ok ? console.log : console.error)(parsed.message);
    return parsed.ok ? 0 : 1;
  }

  const started = performance.now();
  const runner = await ProcessRunner.create();
  const all: RowResult[] = [];
  let failed = false;
  try {
    console.log(header(runner, parsed.runs, parsed.corpus, parsed.dataRoot));
    for (const name of parsed.names) {
      const cleanups: (() => Promise<void>)[] = [];
      const context: BenchContext = {
        dataDir: await benchDataDir(parsed.dataRoot, name),
        dataRoot: parsed.dataRoot,
        corpus: parsed.corpus,
        runs: parsed.runs,
        log: (message) => process.stderr.write(`${message}\n`),
        runScript: (script) => runner.runScript(script),
        defer: (cleanup) => void cleanups.push(cleanup),
      };
      try {
        all.push(...(await runBenchmark(name, BENCHMARKS[name]!, runner, context)));
      } catch (error) {
        // One broken benchmark must not hide the others' figures.
        console.log(
          `\n## ${name}: FAILED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        failed = true;
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    }
    if (parsed.names.length > 1 && all.length > 0) {
      console.log(`\n## All rows\n\n${resultTable(all)}`);
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    console.log(`\nThe whole run took ${seconds} s, load average ${os.loadavg()[0]!.toFixed(1)} at the end.`);
  } finally {
    await runner.dispose();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
