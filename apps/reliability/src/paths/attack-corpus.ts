import path from 'node:path';
import { SOAK } from '../support/iterations.js';
import type { AttackTree } from './attack-tree.js';

/** One path an attacker tries through every tool. */
export interface Attempt {
  /** What the attempt is about. */
  kind: string;
  path: string;
  /**
   * `refused`: every tool must return an error. `contained`: the path is legitimately inside the workspace (an odd
   * but harmless name), so a tool may succeed — but nothing outside, denied or secret may be touched or shown.
   */
  expect: 'refused' | 'contained';
  /** Points at a real system location: only read-only tools try it, so a bug could never clobber the machine. */
  systemPath?: true;
}

/** The attack corpus: `..` chains, absolute paths, prefix tricks, symlinks, UNC, NUL, `~`, drives, long paths, look-alikes. */
export function attackCorpus(tree: AttackTree): Attempt[] {
  const { root, workDir: w, outside: o } = tree;
  const up = (n: number) => '../'.repeat(n);
  const depth = w.split(path.sep).length;
  const refused = (kind: string, p: string): Attempt => ({ kind, path: p, expect: 'refused' });
  const contained = (kind: string, p: string): Attempt => ({ kind, path: p, expect: 'contained' });
  const system = (kind: string, p: string): Attempt => ({
    kind,
    path: p,
    expect: 'refused',
    systemPath: true,
  });
  return [
    // `..` chains
    refused('dot-dot', '../outside/target.txt'),
    refused('dot-dot', './../outside/target.txt'),
    refused('dot-dot', 'src/../../outside/target.txt'),
    refused('dot-dot', 'sub/../../outside/new.txt'),
    refused('dot-dot', `${up(depth + 5)}${o.slice(1)}/target.txt`),
    refused('dot-dot', `${up(1000)}${o.slice(1)}/target.txt`),
    refused('dot-dot', '..'),
    refused('dot-dot', '../'),
    refused('dot-dot', 'src/./../../work-evil/notes.txt'),
    refused('dot-dot', `${'d/'.repeat(50)}${up(51)}outside/target.txt`),
    system('dot-dot', `${up(depth + 3)}etc/passwd`),
    contained('dot-dot look-alike', '..\\outside\\target.txt'),
    contained('dot-dot look-alike', '....//outside/target.txt'),
    // absolute paths
    refused('absolute', path.join(o, 'target.txt')),
    refused('absolute', path.join(o, 'new.txt')),
    refused('absolute', `${w}/../outside/target.txt`),
    refused('absolute', `${w}//../outside/target.txt`),
    refused('absolute', root),
    refused('absolute', path.join(tree.home, '.bashrc')),
    system('absolute', '/etc/passwd'),
    system('absolute', '/'),
    system('absolute', '/proc/self/environ'),
    // prefix attacks: a sibling whose name starts with the work dir's
    refused('prefix', `${w}-evil/notes.txt`),
    refused('prefix', `${w}/../work-evil/notes.txt`),
    refused('prefix', '../work-evil/notes.txt'),
    refused('prefix', `${w}-evil`),
    // deny globs
    refused('deny', 'secrets/key.txt'),
    refused('deny', `${w}/secrets/key.txt`),
    refused('deny', 'secrets/../secrets/key.txt'),
    refused('deny', './secrets//key.txt'),
    refused('deny', 'secrets/./key.txt'),
    refused('deny', 'secrets/key.txt/'),
    refused('deny', 'secrets/new.txt'),
    refused('deny', 'secrets'),
    refused('deny', '.git/config'),
    refused('deny', 'src/../.git/config'),
    refused('deny', '.git/hooks/pre-commit'),
    contained('deny look-alike', 'SECRETS/key.txt'),
    // symlinks: out, chains, loops, aliases of denied and sensitive files, dangling
    refused('symlink', 'out-dir/target.txt'),
    refused('symlink', 'out-dir/new.txt'),
    refused('symlink', 'out-dir'),
    refused('symlink', 'out-dir/'),
    refused('symlink', `${w}/out-dir/target.txt`),
    refused('symlink', 'out-file.txt'),
    refused('symlink', 'abs-out/target.txt'),
    refused('symlink', 'home-link/.bashrc'),
    refused('symlink chain', 'chain-a/target.txt'),
    refused('symlink chain', 'chain-a/new.txt'),
    refused('symlink loop', 'loop-a'),
    refused('symlink loop', 'loop-a/x.txt'),
    refused('symlink loop', 'self/x'),
    refused('symlink to denied', 'key-alias.txt'),
    refused('symlink to denied', 'secrets-alias/key.txt'),
    refused('symlink to denied', 'git-alias/config'),
    refused('symlink dangling outside', 'dangling'),
    refused('symlink prefix', 'evil-prefix/notes.txt'),
    contained('symlink then dot-dot (lexical)', 'out-dir/../outside/target.txt'),
    // sensitive files: may be written (docs/paths.md#sensitive-files), never shown to the model
    contained('sensitive', '.env'),
    contained('sensitive', `${w}/.env`),
    contained('sensitive', 'src/../.env'),
    contained('sensitive alias', 'env-alias.txt'),
    // UNC and NUL: invalid before any file-system access
    refused('UNC', '\\\\server\\share\\x.txt'),
    refused('UNC', '//server/share/x.txt'),
    refused('UNC', '\\\\?\\C:\\x.txt'),
    refused('NUL', 'notes.txt\0.png'),
    refused('NUL', `${o}/target.txt\0`),
    refused('NUL', '\0'),
    // `~`: the home directory is outside; `~user` is a plain (relative) name
    refused('tilde', '~/.bashrc'),
    refused('tilde', '~'),
    refused('tilde', '~/../outside/target.txt'),
    contained('tilde user', '~root/.bashrc'),
    // Windows drive paths (plain names on POSIX) and the MSYS form (absolute on POSIX)
    contained('drive', 'C:\\Windows\\win.ini'),
    contained('drive', 'C:/Windows/win.ini'),
    system('drive', '/c/Windows/win.ini'),
    contained('file URL', 'file:///etc/passwd'),
    // the shown form of a name (docs/paths.md#how-paths-are-shown), read back before every other rule: what it stands
    // for is judged, so quoting or escaping a path gets it nowhere it could not go plainly
    refused('shown form', '"../outside/target.txt"'),
    refused('shown form', '".."/outside/target.txt'),
    refused('shown form', '"\\u002e\\u002e/outside/target.txt"'),
    refused('shown form', `"${o}/target.txt"`),
    refused('shown form', '"secrets"/key.txt'),
    refused('shown form', '"secrets\\/key.txt"'),
    refused('shown form', '"notes.txt\\u0000.png"'),
    refused('shown form', '"\\\\\\\\server\\\\share\\\\x.txt"'),
    refused('shown form', '"~/.bashrc"'),
    system('shown form', '"/etc/passwd"'),
    // odd names: control characters, escapes that are only text, leading quotes
    contained('odd name', 'a\tb.txt'),
    contained('odd name', 'a\\tb.txt'),
    contained('odd name', '"a\\tb.txt"'),
    contained('odd name', '"\\"a\\\\tb.txt\\""'),
    contained('odd name', '"q.txt'),
    contained('odd name', 'src/"x"'),
    contained('odd name', '\u0001\u001b[2K\u007f\u0085\u202e.txt'),
    // very long paths
    // 1500 levels in soak runs only: once WriteFile has created them, every later path below costs the policy's
    // realPathAllowMissing seconds (glibc realpath is quadratic in depth, and it is called once per missing level).
    contained('long', `${'a/'.repeat(SOAK ? 1500 : 200)}x.txt`),
    contained('long', `${`${'b'.repeat(250)}/`.repeat(12)}x.txt`),
    contained('long', 'x'.repeat(300)),
    contained('long', `${'é'.repeat(200)}.txt`),
    // Unicode look-alikes of dots, slashes and names
    contained('look-alike', '\u2025/outside/target.txt'),
    contained('look-alike', '\uff0e\uff0e/outside/target.txt'),
    contained('look-alike', '..\u2215outside\u2215target.txt'),
    contained('look-alike', '..\uff0foutside\uff0ftarget.txt'),
    contained('look-alike', '.\u200b./outside/target.txt'),
    contained('look-alike', 'secrets\u200b/key.txt'),
    contained('look-alike', '\uff53\uff45\uff43\uff52\uff45\uff54\uff53/key.txt'),
    contained('look-alike', '.\uff25\uff2e\uff36'),
  ];
}
