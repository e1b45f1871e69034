import { spawn, type ChildProcess } from 'node:child_process';

/** What a command printed and how it ended. */
export interface CommandResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs commands where the files are: in a container (`docker exec -i NAME`), a sandbox (its SDK's exec), or, for the
 * tests, on this machine. The whole backend needs nothing else.
 */
export interface CommandRunner {
  /** Runs `argv` to the end, with `stdin` written to it (or closed at once). */
  run(argv: readonly string[], stdin?: Uint8Array): Promise<CommandResult>;
  /** Starts `argv` and leaves it running (a descriptor holder, a program for `exec`). */
  start(argv: readonly string[], options: { stdin: 'pipe' | 'ignore' }): ChildProcess;
}

/**
 * A runner that puts `prefix` before every command: `['docker', 'exec', '-i', 'box']` runs them in the container
 * `box`; `[]` runs them here. Every argument stays its own argv entry: nothing is spliced into a shell string.
 */
export function prefixRunner(prefix: readonly string[]): CommandRunner {
  const argvOf = (argv: readonly string[]) => [...prefix, ...argv];
  const start: CommandRunner['start'] = (argv, { stdin }) => {
    const [command, ...args] = argvOf(argv);
    return spawn(command!, args, { stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  };
  return {
    start,
    run: (argv, input) =>
      new Promise((resolve, reject) => {
        const child = start(argv, { stdin: input ? 'pipe' : 'ignore' });
        const stdout: Buffer[] = [];
        const stderr: Buffer[] = [];
        child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
        child.once('error', reject);
        child.once('close', (code) =>
          resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }),
        );
        if (input) child.stdin!.end(input);
      }),
  };
}
