import { execFileSync } from 'node:child_process';

/** Makes `dir` a git repository, as a user's project is: Glob and Grep read ignore rules by the repository's bounds. */
export function gitInit(dir: string): void {
  execFileSync('git', ['init', '-q', dir], { stdio: 'ignore' });
}
