import path from 'node:path';
import type { FileSystem } from '@kimi-tools/core';
import type { TempWorkspace } from '@kimi-tools/test-kit';

/** Secrets planted in files no tool may read; none may ever show up in a result. */
export const SECRETS = {
  outside: 'OUTSIDE_SECRET_c4e1',
  prefixSibling: 'EVIL_SECRET_0b9d',
  denied: 'DENIED_SECRET_91c2',
  git: 'GIT_SECRET_55d0',
  home: 'HOME_SECRET_3e8f',
  /** The sensitive `.env` inside the work dir: tools may write it (docs/paths.md#sensitive-files), but its content never reaches the model. */
  env: 'ENV_SECRET_7f3a',
} as const;

/** The deny globs of the attacked runtime. */
export const DENY_GLOBS = ['**/.git/**', 'secrets/**'];

/** Where everything of the attack tree lives. */
export interface AttackTree {
  /** The backend the tree is on (the workspace's). */
  fs: FileSystem;
  root: string;
  workDir: string;
  outside: string;
  prefixSibling: string;
  home: string;
}

/**
 * Builds, in a test kit workspace: the work dir (plain files, a sensitive `.env`, denied `secrets/` and `.git/`,
 * symlinks that lead out, in chains, in loops, to denied and sensitive files, a dangling one pointing outside), the
 * directory outside it, a sibling whose name starts with the work dir's name, and a fake home directory.
 */
export async function createAttackTree(workspace: TempWorkspace): Promise<AttackTree> {
  const { root, workDir, outsideDir: outside } = workspace;
  const prefixSibling = path.join(root, 'work-evil');
  const home = path.join(root, 'home');
  const files: Record<string, string> = {
    'work/notes.txt': 'benign notes\n',
    'work/src/app.ts': 'export const app = 1;\n',
    'work/.env': `${SECRETS.env}=1\n`,
    'work/secrets/key.txt': `${SECRETS.denied}\n`,
    'work/.git/config': `[core]\n\tsecret = ${SECRETS.git}\n`,
    'work/sub/file.txt': 'race target\n',
    'outside/target.txt': `${SECRETS.outside}\n`,
    // Same bytes as work/sub/file.txt, so a "does it still hold what I read?" check cannot tell them apart.
    'outside/file.txt': 'race target\n',
    'work-evil/notes.txt': `${SECRETS.prefixSibling}\n`,
    'home/.bashrc': `export TOKEN=${SECRETS.home}\n`,
  };
  for (const [name, content] of Object.entries(files)) await workspace.write(path.join(root, name), content);
  const links: Record<string, string> = {
    'out-dir': '../outside',
    'out-file.txt': '../outside/target.txt',
    'chain-a': 'chain-b',
    'chain-b': 'chain-c',
    'chain-c': '../outside',
    'loop-a': 'loop-b',
    'loop-b': 'loop-a',
    self: 'self',
    'env-alias.txt': '.env',
    'key-alias.txt': 'secrets/key.txt',
    'secrets-alias': 'secrets',
    'git-alias': '.git',
    dangling: '../outside/created-through-dangling-link.txt',
    'evil-prefix': '../work-evil',
    'abs-out': outside,
    'home-link': '../home',
  };
  for (const [name, target] of Object.entries(links)) await workspace.symlink(name, target);
  return { fs: workspace.fs, root, workDir, outside, prefixSibling, home };
}
