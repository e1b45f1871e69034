import type { ExecOptions, ExecProcess, FileSystem } from '@kimi-tools/core/fs';
import { expect } from 'vitest';
import { streamText, type CaseContext, type ConformanceCase } from './conformance-case.js';

/** The backend's `exec`, or the case is skipped because the backend says it runs nothing. */
function execOf(context: CaseContext): NonNullable<FileSystem['exec']> {
  const { exec } = context.fs;
  if (!context.fs.capabilities.exec || !exec) context.skip('capabilities.exec is false');
  return exec.bind(context.fs);
}

/** Runs a program to its end: what it printed on each stream and how it ended. */
async function runToEnd(
  exec: NonNullable<FileSystem['exec']>,
  command: string,
  args: readonly string[],
  options?: ExecOptions,
  input?: string,
) {
  const child: ExecProcess = exec(command, args, options);
  if (input !== undefined) child.stdin!.end(input);
  const [stdout, stderr, exit] = await Promise.all([
    streamText(child.stdout),
    streamText(child.stderr),
    child.exit,
  ]);
  return { stdout, stderr, ...exit };
}

/** `exec`: present exactly when `capabilities.exec`, and a program run where the files are. */
export const execCases: readonly ConformanceCase[] = [
  {
    name: 'exec is there exactly when capabilities.exec says so',
    async run({ fs }) {
      expect(typeof fs.exec === 'function').toBe(fs.capabilities.exec);
    },
  },
  {
    name: 'exec runs a program: its line on stdout, nothing on stderr, exit code 0',
    async run(context) {
      const exec = execOf(context);
      expect(await runToEnd(exec, 'echo', ['one line'])).toEqual({
        stdout: 'one line\n',
        stderr: '',
        code: 0,
        signal: null,
      });
    },
  },
  {
    name: 'exec reports the exit code and standard error of a failing program',
    async run(context) {
      const exec = execOf(context);
      expect(await runToEnd(exec, 'sh', ['-c', 'printf oops >&2; exit 3'])).toEqual({
        stdout: '',
        stderr: 'oops',
        code: 3,
        signal: null,
      });
    },
  },
  {
    name: 'exec runs in the working directory given, with variables set and removed',
    async run(context) {
      const exec = execOf(context);
      const script = 'pwd; printf "%s|%s" "$KIMI_CONFORMANCE_SET" "${KIMI_CONFORMANCE_REMOVED-removed}"';
      const result = await runToEnd(exec, 'sh', ['-c', script], {
        cwd: context.root,
        env: { KIMI_CONFORMANCE_SET: 'set', KIMI_CONFORMANCE_REMOVED: undefined },
      });
      expect(result.stdout).toBe(`${context.root}\nset|removed`);
      expect(result.code).toBe(0);
    },
  },
  {
    name: "exec with stdin 'pipe' feeds the program; without it, standard input is closed from the start",
    async run(context) {
      const exec = execOf(context);
      expect((await runToEnd(exec, 'cat', [], { stdin: 'pipe' }, 'piped\nlines\n')).stdout).toBe(
        'piped\nlines\n',
      );
      const closed = exec('cat', []);
      expect(closed.stdin).toBeNull();
      const [stdout, exit] = await Promise.all([
        streamText(closed.stdout),
        closed.exit,
        streamText(closed.stderr),
      ]);
      expect(stdout).toBe('');
      expect(exit.code).toBe(0);
    },
  },
  {
    name: 'started resolves true once the program runs, before it ends; what is written from then on reaches it',
    async run(context) {
      const exec = execOf(context);
      const child = exec('sh', ['-c', 'echo $$; exec cat'], { stdin: 'pipe' });
      let ended = false;
      const exit = child.exit.finally(() => (ended = true));
      const output = Promise.all([streamText(child.stdout), streamText(child.stderr)]);
      expect(await child.started).toBe(true);
      // `cat` waits for its input: the program cannot have ended yet.
      expect(ended).toBe(false);
      const pid = child.pid;
      child.stdin!.end('after the start\n');
      const [[stdout, stderr], status] = await Promise.all([output, exit]);
      const [shellPid, ...rest] = stdout.split('\n');
      expect({ rest, stderr, ...status }).toEqual({
        rest: ['after the start', ''],
        stderr: '',
        code: 0,
        signal: null,
      });
      // Where the backend gives a process id, it is known by the time `started` resolves.
      if (pid !== undefined) expect(pid).toBe(Number(shellPid));
    },
  },
  {
    name: 'kill ends a running program (not with exit code 0), and is harmless twice or after the end',
    async run(context) {
      const exec = execOf(context);
      const child = exec('sleep', ['300']);
      const output = Promise.all([streamText(child.stdout), streamText(child.stderr)]);
      child.kill();
      child.kill();
      const exit = await child.exit;
      expect(exit.code === 0).toBe(false);
      expect(exit.code !== null || exit.signal !== null).toBe(true);
      await output;
      child.kill();
      // Killed at once, it may have started or not, but `started` settles either way and never rejects.
      expect([true, false]).toContain(await child.started);
    },
  },
  {
    name: "pid, where the backend gives it, is the program's own process id on its host",
    async run(context) {
      const exec = execOf(context);
      const child = exec('sh', ['-c', 'echo $$']);
      const [stdout] = await Promise.all([streamText(child.stdout), streamText(child.stderr), child.exit]);
      if (child.pid !== undefined) expect(child.pid).toBe(Number(stdout.trim()));
    },
  },
  {
    name: 'exec of a program that does not exist settles its exit with ENOENT, and started with false',
    async run(context) {
      const exec = execOf(context);
      const child = exec('kimi-tools-conformance-no-such-program', [], { stdin: 'pipe' });
      const output = Promise.all([streamText(child.stdout), streamText(child.stderr)]).catch(() => undefined);
      expect(await child.started).toBe(false);
      await expect(child.exit).rejects.toMatchObject({ code: 'ENOENT' });
      await output;
    },
  },
];
