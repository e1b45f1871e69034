import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

/**
 * Starts processes for a test to look at in `/proc` (their standard streams on `/dev/null`), each killed after the
 * test; returns the starter, which gives a process's pid.
 */
export function processStarter(): (command: string, args: readonly string[]) => number {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  return (command, args) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    children.push(child);
    if (child.pid === undefined) throw new Error(`${command} did not start`);
    return child.pid;
  };
}
