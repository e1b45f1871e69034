// `pnpm bench [name...] [--runs N]`: runs the registered benchmarks (all of them when no name is given).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchDataDir } from './harness/bench-data.js';
import { ChildRunner } from './harness/child-process.js';
import { runBenchmark } from './harness/run-benchmark.js';
import { formatMegabytes } from './harness/table.js';
import type { Benchmark, BenchContext } from './harness/types.js';
import * as registry from './registry.js';

const DEFAULT_RUNS = 5;

interface Arguments {
  names: string[];
  runs: number;
}

function usage(available: readonly string[]): string {
  return `Usage: pnpm bench [name...] [--runs N]\nBenchmarks: ${available.join(', ')}`;
}

function parseArguments(argv: readonly string[], available: readonly string[]): Arguments | string {
  const names: string[] = [];
  let runs = DEFAULT_RUNS;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--help' || argument === '-h') return usage(available);
    if (argument === '--runs') {
      runs = Number(argv[++index]);
      if (!Number.isInteger(runs) || runs < 1) return `--runs needs a positive integer.\n${usage(available)}`;
    } else if (argument === '--') {
      continue; // pnpm passes a separator through on some versions
    } else if (!available.includes(argument)) {
      return `Unknown benchmark "${argument}".\n${usage(available)}`;
    } else {
      names.push(argument);
    }
  }
  return { names: names.length > 0 ? names : [...available], runs };
}

async function main(): Promise<number> {
  const benchmarks: Record<string, Benchmark> = { ...registry };
  const parsed = parseArguments(process.argv.slice(2), Object.keys(benchmarks));
  if (typeof parsed === 'string') {
    console.error(parsed);
    return parsed.startsWith('Usage') ? 0 : 1;
  }

  const runner = await ChildRunner.create();
  let failed = false;
  try {
    const idle = await runner.runOurs({
      script: fileURLToPath(new URL('./harness/idle-child.ts', import.meta.url)),
      args: [],
    });
    console.log(
      `# @kimi-tools benchmarks — Node ${process.version}, ${process.platform}/${process.arch}, ` +
        `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at start\n` +
        `"ours" runs in a fresh Node process (compiled to JavaScript) and times its own job, reading the input included;\n` +
        `its peak RSS includes the process itself (an idle one peaks at ${formatMegabytes(idle.peakRssBytes)}).` +
        ` The reference is timed from spawn to exit` +
        (runner.hasPeakMemoryMeter
          ? '. Peak RSS of both comes from GNU time.'
          : '. /usr/bin/time is missing: the reference memory is n/a, ours is self-reported (and includes pages of the harness).'),
    );
    for (const name of parsed.names) {
      const context: BenchContext = {
        dataDir: await benchDataDir(name),
        runs: parsed.runs,
        log: (message) => process.stderr.write(`${message}\n`),
        runOurs: (ours) => runner.runOurs(ours),
      };
      try {
        await runBenchmark(name, benchmarks[name]!, runner, context);
      } catch (error) {
        // One broken benchmark must not hide the others' figures.
        console.log(
          `\n## ${name}: FAILED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        failed = true;
      }
    }
  } finally {
    await runner.dispose();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
