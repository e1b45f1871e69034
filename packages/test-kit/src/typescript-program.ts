import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** How {@link writeTypeScriptProgram} writes a program. */
export interface TypeScriptProgramOptions {
  /**
   * The workspace package whose dependencies the program imports (its `node_modules`): `@kimi-tools/*` packages
   * resolve to their builds, as for a user, so the packages must be built (`*.e2e.test.ts`).
   */
  packageDir: string;
  /** Text of the code replaced before it runs, each key by its value (a placeholder such as `/path/to/project`). */
  replace?: Readonly<Record<string, string>>;
  /** JavaScript (an ES module) run before the program, as `node --import` runs it. */
  setup?: string;
}

/** A program written to disk: the command that runs it with `tsx`'s loader, as a user would run a copied snippet. */
export interface TypeScriptProgram {
  command: string;
  args: string[];
}

/** `tsx`'s loader, for `node --import`: TypeScript in the program's own process (its CLI would start a second one). */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * Writes `code` as an ES module (`main.mts`, so top-level `await` works) into `directory`, which it creates, next to
 * a `node_modules` link to the package's, and returns the command that runs it.
 */
export async function writeTypeScriptProgram(
  code: string,
  directory: string,
  { packageDir, replace = {}, setup }: TypeScriptProgramOptions,
): Promise<TypeScriptProgram> {
  await fs.mkdir(directory, { recursive: true });
  await fs.symlink(path.join(packageDir, 'node_modules'), path.join(directory, 'node_modules'), 'dir');
  const main = path.join(directory, 'main.mts');
  await fs.writeFile(
    main,
    Object.entries(replace).reduce((text, [from, to]) => text.split(from).join(to), code),
  );
  const args = ['--import', TSX_LOADER];
  if (setup !== undefined) {
    const file = path.join(directory, 'setup.mjs');
    await fs.writeFile(file, setup);
    args.push('--import', pathToFileURL(file).href);
  }
  args.push(main);
  return { command: process.execPath, args };
}

/** How a program ran. */
export interface ProgramRun {
  /** The exit code; `null` when it was killed (by the time limit). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** How {@link runProgram} runs a program. */
export interface RunOptions {
  cwd: string;
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** What the program reads on stdin, which is then closed (at once without it). */
  input?: string;
  /** Kills the program after this many milliseconds (default 60,000). */
  timeoutMs?: number;
}

/** Runs a program and gathers its output. */
export function runProgram(
  program: TypeScriptProgram,
  { cwd, env = {}, input, timeoutMs = 60_000 }: RunOptions,
): Promise<ProgramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(program.command, program.args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.on('error', () => {}); // a program that exits without reading its input closes the pipe
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}
