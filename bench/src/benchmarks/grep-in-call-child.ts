// Grep in one warm process: Grep.call, then ripgrep spawned from here with exactly the flags Grep passes (its output
// read and dropped), taking turns. Usage: grep-in-call-child.ts ROOT MODE PATTERN PAIRS CWD RG [RG_ARGS...]
import { spawn } from 'node:child_process';
import { runPairs } from '../harness/child-report.js';
import { buildGrep } from '../tools.js';

const [root, mode, pattern, pairs, cwd, rg, ...rgArgs] = process.argv.slice(2);
if (
  root === undefined ||
  (mode !== 'content' && mode !== 'files_with_matches') ||
  pattern === undefined ||
  cwd === undefined ||
  rg === undefined
) {
  throw new Error('usage: grep-in-call-child.ts ROOT MODE PATTERN PAIRS CWD RG [RG_ARGS...]');
}

function runRipgrep(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg!, rgArgs, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => {});
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

const grep = await buildGrep(root);
await runPairs(
  Number(pairs),
  async () => {
    const result = await grep.call({ pattern, output_mode: mode });
    if (result.isError) throw new Error(`Grep failed: ${result.message}`);
  },
  runRipgrep,
);
