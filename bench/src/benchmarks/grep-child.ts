// Grep as a user runs it: a fresh process builds the tool, makes one call with the model's defaults (head_limit
// 250), prints the result and exits. Usage: grep-child.ts ROOT content|files_with_matches PATTERN [RG_PATH]
// RG_PATH replaces the ripgrep binary (the bench uses it once to capture the exact flags Grep passes).
import { callOnce } from '../harness/one-call.js';
import { buildGrep } from '../tools.js';
import { sinceStartMs } from '../harness/child-report.js';

// Since the process started: Node's own start-up and the loading of this script.
const startMs = sinceStartMs();
const [root, mode, pattern, rgPath] = process.argv.slice(2);
if (root === undefined || (mode !== 'content' && mode !== 'files_with_matches') || pattern === undefined) {
  throw new Error('usage: grep-child.ts ROOT content|files_with_matches PATTERN [RG_PATH]');
}

await callOnce(
  startMs,
  () => buildGrep(root, { rgPath }),
  { pattern, output_mode: mode },
  (result) => ({
    total: Number(result.extras?.['total'] ?? -1),
  }),
);
