import type { ChildProcess } from 'node:child_process';

// Process-wide on purpose: the process exits once, whatever the runtimes in it, so one `exit` listener serves every
// language server of every runtime (a listener each made Node warn of a leak past ten servers).
const children = new Set<ChildProcess>();

function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** Kills `child` when this process exits, unless the returned function is called first (once it has exited). */
export function killAtExit(child: ChildProcess): () => void {
  if (children.size === 0) process.once('exit', killAll);
  children.add(child);
  return () => {
    if (!children.delete(child)) return;
    if (children.size === 0) process.removeListener('exit', killAll);
  };
}
