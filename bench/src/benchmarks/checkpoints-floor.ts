// The floor under any checkpoint that must notice changes made by anything else, in a fresh Node process: Node's
// start-up, a walk of the tree with `readdirSync(withFileTypes)` and one `lstat` of every path it meets (the stamps
// a change moves), then the count printed. No code of ours. It skips by name what the checkpoint's scan always skips
// (version-control folders, `node_modules`) but reads no ignore file: it lstats the few paths the rules leave out too
// (on the corpus, 8 of 63,000), so it never does less than the scan must.
// Synchronous calls: on the corpus (5 runs each, a busy 2-core machine) 0.49–0.85 s wall and 0.47–0.53 s CPU, where
// `readdir` and `lstat` through the thread pool (128 in flight) took 0.73–1.08 s and 0.88–1.00 s.
// Usage: checkpoints-floor.ts ROOT
import { lstatSync, readdirSync } from 'node:fs';
import { reportDetails, sinceStartMs } from '../harness/child-report.js';

/** Folders the checkpoint's scan skips by name, whatever the ignore files say (core's, as in glob-floor-walk.ts). */
const SKIPPED = new Set(['.git', '.svn', '.hg', '.bzr', '.jj', '.sl', 'node_modules']);

const startMs = sinceStartMs();
const [root] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: checkpoints-floor.ts ROOT');
lstatSync(root);
let paths = 1;
const directories = [root];
for (let dir = directories.pop(); dir !== undefined; dir = directories.pop()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = `${dir}/${entry.name}`;
    lstatSync(full);
    paths += 1;
    if (entry.isDirectory()) directories.push(full);
  }
}
process.stdout.write(`${paths} paths\n`);
reportDetails({ startMs, walkMs: sinceStartMs() - startMs, paths });
