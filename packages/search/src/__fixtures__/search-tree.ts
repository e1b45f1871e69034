import { execFileSync } from 'node:child_process';
import { utimes } from 'node:fs/promises';
import { createTempWorkspace, type FileContent, type TempWorkspace } from '@kimi-tools/test-kit';

/** What a search tree holds besides its files. */
export interface SearchTreeOptions {
  /** Make the work dir a git repository, as a user's project is: Glob and Grep read ignore rules by its bounds. */
  git?: boolean;
  /** Files of the directory outside the work dir (path relative to it → content). */
  outside?: Readonly<Record<string, FileContent>>;
  /** Modification times, in seconds since the epoch, of some of `files` (Grep lists files newest first). */
  mtimes?: Readonly<Record<string, number>>;
}

/**
 * A test kit workspace laid out for Glob and Grep: `files` in the work dir (path → content), and what `options`
 * adds. Symlinks are the test's own (`tree.symlink`); the caller removes the tree with `cleanup()`.
 */
export async function createSearchTree(
  files: Readonly<Record<string, FileContent>>,
  { git = false, outside = {}, mtimes = {} }: SearchTreeOptions = {},
): Promise<TempWorkspace> {
  const tree = await createTempWorkspace();
  for (const [name, content] of Object.entries(outside)) await tree.write(tree.outside(name), content);
  if (git) execFileSync('git', ['init', '-q', tree.workDir], { stdio: 'ignore' });
  await tree.writeAll(files);
  for (const [name, seconds] of Object.entries(mtimes)) await utimes(tree.at(name), seconds, seconds);
  return tree;
}
