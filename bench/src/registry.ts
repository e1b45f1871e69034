// Every benchmark `pnpm bench` knows, in the order they run: one import and one entry each. The key is the name
// given on the command line (`pnpm bench grep`); the value is a `Benchmark` (src/harness/types.ts, README.md).
// README.md lists them with their goals.
import applyPatch from './benchmarks/apply-patch.js';
import checkpoints from './benchmarks/checkpoints.js';
import coldStart from './benchmarks/cold-start.js';
import diagnostics from './benchmarks/diagnostics.js';
import diff from './benchmarks/diff.js';
import glob from './benchmarks/glob.js';
import grep from './benchmarks/grep.js';
import imageFit from './benchmarks/image-fit.js';
import notebook from './benchmarks/notebook-edit.js';
import read from './benchmarks/read-file.js';
import replace from './benchmarks/str-replace.js';
import ssh from './benchmarks/ssh.js';
import write from './benchmarks/write-file.js';
import type { Benchmark } from './harness/types.js';

/** The benchmarks by command-line name, in issue 15's order, then the older ones. */
export const BENCHMARKS: Readonly<Record<string, Benchmark>> = {
  grep,
  glob,
  replace,
  read,
  notebook,
  coldStart,
  diff,
  write,
  imageFit,
  diagnostics,
  applyPatch,
  ssh,
  checkpoints,
};
