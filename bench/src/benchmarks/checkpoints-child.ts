// Checkpoints as a host uses them: a fresh process makes the runtime's checkpoints on WORK_DIR with their store in
// STORE_DIR and takes one checkpoint (`create`) or rewinds to checkpoint ID (`rewind`), then prints what it did.
// Usage: checkpoints-child.ts create WORK_DIR STORE_DIR | checkpoints-child.ts rewind WORK_DIR STORE_DIR ID
import { reportDetails, sinceStartMs } from '../harness/child-report.js';
import { buildCheckpoints } from '../tools.js';

const startMs = sinceStartMs();
const [action, workDir, storeDir, id] = process.argv.slice(2);
if (workDir === undefined || storeDir === undefined || (action !== 'create' && action !== 'rewind')) {
  throw new Error('usage: checkpoints-child.ts create|rewind WORK_DIR STORE_DIR [ID]');
}
const checkpoints = await buildCheckpoints(workDir, storeDir);
const builtMs = sinceStartMs();
let files: number;
if (action === 'create') {
  const checkpoint = await checkpoints.create();
  files = checkpoint.files.length;
  process.stdout.write(`Checkpoint ${checkpoint.id}: ${files} files changed\n`);
} else {
  const result = await checkpoints.rewind(id ?? '');
  if (result.kind !== 'rewound') throw new Error(`the rewind did not happen: ${JSON.stringify(result)}`);
  files = result.restored.length;
  process.stdout.write(`Rewound to checkpoint ${id}: ${files} files changed\n`);
}
reportDetails({ startMs, importMs: builtMs - startMs, callMs: sinceStartMs() - builtMs, files });
