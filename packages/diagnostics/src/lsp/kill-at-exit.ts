import type { ExecProcess } from '@kimi-tools/core/fs';

/** What the exit of this process ends: a program started through a file system's `exec`. */
type Killable = Pick<ExecProcess, 'kill'>;

// Process-wide on purpose: the process exits once, whatever the runtimes in it, so one `exit` listener serves every
// language server of every runtime (a listener each made Node warn of a leak past ten servers). `kill()` sends its
// signal before it returns where the program runs on this machine, as an `exit` listener needs; a server on another
// host sees its standard input close with the connection instead (docs/file-systems.md#running-programs).
const programs = new Set<Killable>();

function killAll(): void {
  for (const program of programs) program.kill();
}

/** Kills `program` when this process exits, unless the returned function is called first (once it has ended). */
export function killAtExit(program: Killable): () => void {
  if (programs.size === 0) process.once('exit', killAll);
  programs.add(program);
  return () => {
    if (!programs.delete(program)) return;
    if (programs.size === 0) process.removeListener('exit', killAll);
  };
}
