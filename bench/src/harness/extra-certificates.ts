// A machine whose environment sets NODE_EXTRA_CA_CERTS makes every Node process load those certificates at start-up,
// before any script runs (on this project's development machine: 144 certificates, 220 KB, ~60 ms of an ~80 ms `node -e 0`).
// The rows keep the environment as it is (what a user of that machine gets), so the header says what it costs: it
// adds to every Node side, ours and the Node references alike, and to none of `rg`, `git`, `tail`.
import { spawnSync } from 'node:child_process';
import { median } from './stats.js';

const RUNS = 5;

/** Wall milliseconds of one `node -e 0` in `env`. */
function bareStartMs(env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The header's line on NODE_EXTRA_CA_CERTS when it is set: `node -e 0` with and without it, alternating. */
export function extraCertificatesNote(): string | undefined {
  const file = process.env['NODE_EXTRA_CA_CERTS'];
  if (!file) return undefined;
  const without = { ...process.env };
  delete without['NODE_EXTRA_CA_CERTS'];
  const withIt: number[] = [];
  const withoutIt: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    withIt.push(bareStartMs(process.env));
    withoutIt.push(bareStartMs(without));
  }
  return (
    `NODE_EXTRA_CA_CERTS is set (${file}): every Node process, ours and the Node references alike, loads it at ` +
    `start-up; \`node -e 0\` takes ${median(withIt).toFixed(0)} ms with it, ${median(withoutIt).toFixed(0)} ms ` +
    `without (medians of ${RUNS}). The rows keep it: Node against a C program (rg, git, tail) pays it on one side only.`
  );
}
