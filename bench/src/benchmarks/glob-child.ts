// Glob as a user runs it: a fresh process builds the tool, makes one call, prints the result and exits.
// Usage: glob-child.ts ROOT PATTERN
import { callOnce } from '../harness/one-call.js';
import { buildGlob } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [root, pattern] = process.argv.slice(2);
if (root === undefined || pattern === undefined) throw new Error('usage: glob-child.ts ROOT PATTERN');

// Files only, as `rg --files` lists them.
await callOnce(
  startMs,
  () => buildGlob(root),
  { pattern, include_dirs: false },
  (result) => ({
    total: Number(result.extras?.['total'] ?? -1),
    hidden: Number(result.extras?.['hidden'] ?? -1),
  }),
);
