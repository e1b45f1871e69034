// The working trees the checkpoints benchmark runs on: copies of the search tree (the corpus, or the synthetic tree),
// each a git repository of its own with everything committed once, made once and kept in the data directory.
import { execFile } from 'node:child_process';
import { access, appendFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Git without the user's configuration getting in: a fixed author, no signing, no automatic gc during the runs. */
export const GIT_FLAGS = [
  '-c',
  'user.name=bench',
  '-c',
  'user.email=bench@example.com',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'gc.auto=0',
];

/** Runs git in `tree` with {@link GIT_FLAGS}; returns its stdout. */
export async function git(tree: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', [...GIT_FLAGS, ...args], { cwd: tree, maxBuffer: 256 << 20 });
  return stdout;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * A copy of `source` at `target` that is a git repository with all its files committed once (its own `.git`; the
 * source's is not copied). Made once: a marker beside it says it is whole.
 */
export async function ensureRepositoryTree(
  source: string,
  target: string,
  log: (message: string) => void,
): Promise<string> {
  const marker = `${target}.ready`;
  if ((await exists(marker)) && (await exists(path.join(target, '.git', 'HEAD')))) return target;
  log(`  copying ${source} to ${target} and committing it to a git repository of its own (once)`);
  await rm(target, { recursive: true, force: true });
  await run('cp', ['-a', `${source}/.`, target]);
  await rm(path.join(target, '.git'), { recursive: true, force: true });
  await git(target, 'init', '-q');
  await git(target, 'config', 'gc.auto', '0');
  await git(target, 'add', '-A');
  await git(target, 'commit', '-q', '-m', 'the tree');
  await writeFile(marker, '');
  return target;
}

/** `count` tracked files spread over the tree (every n-th of git's sorted list), relative to it. */
export async function filesToChange(tree: string, count: number): Promise<string[]> {
  const tracked = (await git(tree, 'ls-files', '-z')).split('\0').filter((name) => name !== '');
  const step = Math.max(1, Math.floor(tracked.length / count));
  return tracked.filter((_, index) => index % step === 0).slice(0, count);
}

/** Appends a line naming `tag` to each of `files` (a new content every time). */
export async function changeFiles(tree: string, files: readonly string[], tag: string): Promise<void> {
  await Promise.all(
    files.map((file) => appendFile(path.join(tree, file), `\n// checkpoints bench ${tag}\n`)),
  );
}
