// Every benchmark `pnpm bench` knows, in the order they run: one line each. The export name is the name given on the
// command line (`pnpm bench grep`); the module's default export is a `Benchmark` (src/harness/types.ts, README.md).
// Benchmarks later issues bring (NotebookEdit on a 20 MB notebook, image fitting, diagnostics overhead) register
// here the same way; README.md lists them with their goals.
export { default as grep } from './benchmarks/grep.js';
export { default as glob } from './benchmarks/glob.js';
export { default as replace } from './benchmarks/str-replace.js';
export { default as read } from './benchmarks/read-file.js';
export { default as coldStart } from './benchmarks/cold-start.js';
export { default as diff } from './benchmarks/diff.js';
export { default as write } from './benchmarks/write-file.js';
