/** A command run in a child process and measured from the outside (the reference side of a case). */
export interface ReferenceCommand {
  /** Shown in the table header, e.g. `git diff --no-index`. */
  label: string;
  /** Executable and arguments. */
  argv: string[];
  /** Exit codes that mean success; `git diff` exits 1 when the files differ. Default `[0]`. */
  okExitCodes?: number[];
}

/**
 * Our side of a case: a script of `bench/src` (compiled to JavaScript) run in a fresh child Node process, timing
 * itself (see `child-report.ts`).
 */
export interface OursScript {
  /** Absolute path of the `.ts` script under `bench/src`. */
  script: string;
  args: string[];
}

/** One row of a benchmark's table: our code and the reference doing the same job on the same data. */
export interface BenchCase {
  label: string;
  ours: OursScript;
  reference: ReferenceCommand;
}

/** What one run of one side measured. */
export interface RunMeasurement {
  wallMs: number;
  /** Peak resident set size of the child process, in bytes; undefined when it could not be measured. */
  peakRssBytes: number | undefined;
  /** Extra figures our child script reported (empty for the reference). */
  details: Record<string, number>;
}

/** All runs of one case. */
export interface CaseResult {
  benchCase: BenchCase;
  ours: RunMeasurement[];
  reference: RunMeasurement[];
}

/** Given to a benchmark: where to keep its data, and how to run our scripts outside the table. */
export interface BenchContext {
  /** A directory of its own under `bench/.bench-data/` (gitignored), kept between runs so data is made once. */
  dataDir: string;
  /** Runs per case (`--runs`). */
  runs: number;
  /** Progress line on stderr. */
  log(message: string): void;
  /** Runs one of our child scripts once, outside the table (for extra checks). */
  runOurs(ours: OursScript): Promise<RunMeasurement>;
}

/** A benchmark: registered with one line in `src/registry.ts`. */
export interface Benchmark {
  /** Table title. */
  title: string;
  /** One or two sentences printed above the table: what is measured and against what. */
  description: string;
  /** Makes the data (reusing what `dataDir` already holds) and returns the cases. */
  prepare(context: BenchContext): Promise<BenchCase[]>;
  /** Lines printed under the table, computed from the runs (e.g. a budget check). */
  notes?(results: CaseResult[], context: BenchContext): Promise<string[]>;
}
