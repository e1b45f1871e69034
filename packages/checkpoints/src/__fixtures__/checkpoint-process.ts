// A process taking checkpoints of a workspace, for the two-processes test of store.test.ts: it writes its own file
// `argv[4]` times, taking a checkpoint after each write, then prints the ids it got, one line.
import { promises as fs } from 'node:fs';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { createCheckpoints } from '../checkpoints.js';

const [workDir, storeDir, name, count] = process.argv.slice(2) as [string, string, string, string];
const runtime = createRuntime({ workDir, approval: yoloApproval() });
const checkpoints = createCheckpoints(runtime, { dir: storeDir });
const ids: string[] = [];
for (let index = 0; index < Number(count); index += 1) {
  await fs.writeFile(`${workDir}/${name}.txt`, `${name} ${index}\n`);
  ids.push((await checkpoints.create(`${name} ${index}`)).id);
}
process.stdout.write(`${ids.join(' ')}\n`);
