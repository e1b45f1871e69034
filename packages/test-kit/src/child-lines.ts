import type { ChildProcess } from 'node:child_process';

/**
 * The next line `child` prints on its standard output (piped), without its line break: how a test waits for a child
 * process to reach a point it announces (`in-lock`). Rejects when the child exits first; `name` says who in the error.
 */
export function nextLine(child: ChildProcess, name = 'the child process'): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      child.stdout?.off('data', onData);
      resolve(buffered.slice(0, newline));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (code ${code}) before printing a line`)));
  });
}
