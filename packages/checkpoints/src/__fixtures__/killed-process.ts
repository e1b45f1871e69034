// A process that takes a checkpoint or rewinds, and SIGKILLs itself at an injected point, for the kill tests of
// kill.test.ts. argv[2] is a JSON object:
//   { workDir, storeDir, action: 'create' | 'rewind', id?, killAt?: { side: 'workspace' | 'store', op, nth } }
// The kill comes just before the `nth` call of `op`: on the workspace side a method of the runtime's file system
// (`open`, `create`, `rename`...), on the store side one of node's `fs.promises` (which the store writes through)
// called on a path in the store.
// Without a kill point, or when the action ends before it, the process prints `done` and exits.
import nodeFs from 'node:fs';
import { createRuntime, yoloApproval, type FileSystem } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { createCheckpoints } from '../checkpoints.js';

interface KillAt {
  side: 'workspace' | 'store';
  op: string;
  nth: number;
}

const config = JSON.parse(process.argv[2]!) as {
  workDir: string;
  storeDir: string;
  action: 'create' | 'rewind';
  id?: string;
  killAt?: KillAt;
};

/** `method` of `target`, counted: the process dies just before the `nth` call when `killAt` names it. */
function counted<T extends object>(target: T, side: KillAt['side'], method: string): unknown {
  const original = Reflect.get(target, method) as (...args: unknown[]) => unknown;
  let calls = 0;
  return (...args: unknown[]) => {
    const { killAt } = config;
    const ours = side === 'workspace' || String(args[0]).startsWith(config.storeDir);
    if (ours && killAt?.side === side && killAt.op === method && ++calls === killAt.nth)
      process.kill(process.pid, 'SIGKILL');
    return original.apply(target, args);
  };
}

const workspaceFs: FileSystem = { ...localFileSystem };
for (const method of ['open', 'create', 'rename', 'unlink', 'symlink', 'mkdir', 'rmdir']) {
  Object.assign(workspaceFs, { [method]: counted(localFileSystem, 'workspace', method) });
}
for (const method of ['open', 'writeFile', 'rename', 'link', 'unlink']) {
  Object.assign(nodeFs.promises, { [method]: counted(nodeFs.promises, 'store', method) });
}

const runtime = createRuntime({ workDir: config.workDir, approval: yoloApproval(), fs: workspaceFs });
const checkpoints = createCheckpoints(runtime, { dir: config.storeDir });
const result =
  config.action === 'create' ? await checkpoints.create() : await checkpoints.rewind(config.id ?? '');
process.stdout.write(`done ${JSON.stringify(result)}\n`);
