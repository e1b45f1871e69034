/** A script of `bench/src` (compiled to JavaScript), or a JavaScript file a benchmark made, run with `node` in a fresh process. */
export interface NodeScript {
  kind: 'node';
  /** Absolute path of the `.ts` script under `bench/src`, or of a `.js`/`.mjs` file a benchmark made (run as it is). */
  script: string;
  args: string[];
  cwd?: string;
}

/** Any other command (ripgrep, a shell pipeline...), run as it is. */
export interface Command {
  kind: 'command';
  argv: string[];
  cwd?: string;
  /** Exit codes that mean success (`git diff` exits 1 when the files differ). Default `[0]`. */
  okExitCodes?: number[];
}

/** What a row of the table must reach. Ratios are ours / reference: below 1, ours is faster or smaller. */
export interface Goal {
  /** Highest time ratio that meets the goal. */
  time?: number;
  /** Highest peak-RSS ratio that meets the goal. */
  memory?: number;
  /** A goal that is not a ratio of this row, checked in the benchmark's notes (shown as it is). */
  text?: string;
}

interface RowBase {
  /** The workload, e.g. "Grep content mode". */
  label: string;
  /** Shown in the table, e.g. "rg, same flags". */
  referenceLabel: string;
  goal: Goal;
}

/**
 * A row measured the way users run the tools: every sample is a fresh process for ours and for the reference, timed
 * from spawn to exit, the two taking turns.
 */
export interface WholeProcessRow extends RowBase {
  kind: 'whole-process';
  ours: NodeScript;
  reference: NodeScript | Command;
  /** Untimed set-up before every run of either side (e.g. a fresh copy of the file to edit). */
  beforeEachRun?: () => Promise<void>;
}

/**
 * A row timed inside one warm process: the script runs one untimed pair, then `runs` pairs of ours and the reference
 * taking turns, and reports both series (see `reportPairs`).
 */
export interface InCallRow extends RowBase {
  kind: 'in-call';
  child: NodeScript;
}

/** One row of a benchmark's table. */
export type Row = WholeProcessRow | InCallRow;

/** What one sample measured. */
export interface Sample {
  wallMs: number;
  /** Peak RSS in bytes; undefined when it could not be measured. */
  peakRssBytes: number | undefined;
  /** User + system CPU time of the process, in ms (for commands, with the children they waited for). */
  cpuMs: number | undefined;
  /** Figures our script reported (`reportDetails`), and `stdoutBytes`. */
  details: Record<string, number>;
  /** The in-call series an in-call script reported (`runPairs`), in ms. */
  pairs?: { ours: number[]; reference: number[] };
}

/** All samples of one row. In-call rows share one process: its peak is `ours[0].peakRssBytes`. */
export interface RowResult {
  row: Row;
  ours: Sample[];
  reference: Sample[];
}

/** Given to a benchmark. */
export interface BenchContext {
  /** A directory of its own, outside the repository, kept between runs so data is made once. */
  dataDir: string;
  /** The root of all benchmarks' data (for data several benchmarks share, e.g. the synthetic tree). */
  dataRoot: string;
  /** The real source tree given with `--corpus` (or KIMI_BENCH_CORPUS), if any. */
  corpus: string | undefined;
  /** Timed runs per side and row. */
  runs: number;
  /** A progress line on stderr. */
  log(message: string): void;
  /** Runs one of our scripts once, outside the table (for checks in notes). */
  runScript(script: NodeScript): Promise<Sample>;
  /** Runs `cleanup` once the benchmark is done (its rows and notes), whether it succeeded or not: a server it started. */
  defer(cleanup: () => Promise<void>): void;
}

/** A benchmark: registered with one line in `src/registry.ts`. */
export interface Benchmark {
  /** Section title. */
  title: string;
  /** One or two sentences printed above the table: what is measured and against what. */
  description: string;
  /** Makes the data (reusing what `dataDir` already holds) and returns the rows. */
  prepare(context: BenchContext): Promise<Row[]>;
  /** Lines printed under the table, computed from the samples (checks, splits, outcomes). */
  notes?(results: RowResult[], context: BenchContext): Promise<string[]>;
}
