// Glob as a user runs it: a fresh process builds the tool, makes one call, prints the result and exits.
// Usage: glob-child.ts ROOT PATTERN
import { reportDetails } from '../harness/child-report.js';
import { buildGlob } from '../tools.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = performance.now();
const [root, pattern] = process.argv.slice(2);
if (root === undefined || pattern === undefined) throw new Error('usage: glob-child.ts ROOT PATTERN');

const glob = await buildGlob(root);
const builtMs = performance.now();
// Files only, as `rg --files` lists them.
const result = await glob.call({ pattern, include_dirs: false });
const calledMs = performance.now();
if (result.isError) throw new Error(`Glob failed: ${result.message}`);
const output = typeof result.output === 'string' ? result.output : '';
process.stdout.write(`${output}\n${result.message}\n`);
reportDetails({
  startMs,
  importMs: builtMs - startMs,
  callMs: calledMs - builtMs,
  total: Number(result.extras?.['total'] ?? -1),
  hidden: Number(result.extras?.['hidden'] ?? -1),
});
