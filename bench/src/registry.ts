// Every benchmark `pnpm bench` knows: one line each. The export name is the name given on the command line
// (`pnpm bench diff`); the module's default export is a `Benchmark` (see src/harness/types.ts and README.md).
export { default as diff } from './benchmarks/diff.js';
export { default as search } from './benchmarks/search.js';
export { default as write } from './benchmarks/write-file.js';
export { default as read } from './benchmarks/read-file.js';
export { default as replace } from './benchmarks/str-replace.js';
export { default as coldStart } from './benchmarks/cold-start.js';
