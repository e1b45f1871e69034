import path from 'node:path';
import { basenameGlobRegExp } from './basename-glob.js';
import { compileGlobs } from './glob-matcher.js';
import { pathApiFor } from './platform-path.js';

/** One row of the built-in table of sensitive files (docs/paths.md#sensitive-files). */
export interface SensitiveEntry {
  /** A glob matched against the basename, or, when it holds a `/`, a path the file's path must end with. */
  readonly pattern: string;
  /** Basenames the pattern catches that stay ordinary (the public halves of key pairs). */
  readonly except?: string;
  /** Sensitive only when the file holds a private key (judged on its content, see `private-key.ts`). */
  readonly privateKeyOnly?: true;
  /** Where such files usually live under a home or workspace directory, when not directly in it. */
  readonly usualDir?: string;
}

/** The built-in sensitive files, in the order docs/paths.md lists them. */
export const SENSITIVE_FILES: readonly SensitiveEntry[] = [
  { pattern: '.env' },
  { pattern: '.env.*' },
  { pattern: '.npmrc' },
  { pattern: '.netrc' },
  // The name curl and git look for on Windows.
  { pattern: '_netrc' },
  { pattern: '.git-credentials' },
  { pattern: '.pgpass' },
  { pattern: '.pypirc' },
  { pattern: 'credentials' },
  { pattern: '.aws/credentials' },
  { pattern: '.gcp/credentials' },
  { pattern: '.docker/config.json' },
  { pattern: '.kube/config' },
  { pattern: '.config/gh/hosts.yml' },
  { pattern: '*.key' },
  { pattern: '*.p12' },
  { pattern: '*.pfx' },
  // Certificates are public and usually `.pem` too: only a `.pem` holding a private key is sensitive.
  { pattern: '*.pem', privateKeyOnly: true },
  { pattern: 'id_{rsa,dsa,ecdsa,ed25519}*', except: '*.pub', usualDir: '.ssh' },
];

/** Templates that look like `.env.*` but are meant to be shared: never sensitive, whatever a host adds. */
const SAFE_BASENAMES: readonly string[] = ['.env.example', '.env.sample', '.env.template'];

/** How many names the warning spells out before summarising. */
const WARNING_NAME_LIMIT = 5;

/**
 * What a file's name says: `sensitive`; `private-key` (sensitive if its content holds a private key); `ordinary`.
 */
export type NameVerdict = 'sensitive' | 'private-key' | 'ordinary';

/** Judges a file path by its name alone. */
export type SensitiveNameTest = (filePath: string) => NameVerdict;

/** A row of the table, compiled for one case mode. `slashed` is the whole path with `/` separators. */
type CompiledEntry = (basename: string, slashed: string) => boolean;

function compileEntry(entry: SensitiveEntry, nocase: boolean): CompiledEntry {
  if (entry.pattern.includes('/')) {
    const ending = nocase ? entry.pattern.toLowerCase() : entry.pattern;
    return (_basename, slashed) => {
      const folded = nocase ? slashed.toLowerCase() : slashed;
      return folded === ending || folded.endsWith(`/${ending}`);
    };
  }
  const matches = basenameGlobRegExp(entry.pattern, nocase);
  const excepted = entry.except === undefined ? undefined : basenameGlobRegExp(entry.except, nocase);
  return (basename) => matches.test(basename) && !excepted?.test(basename);
}

function compileTable(nocase: boolean): ReadonlyArray<{ test: CompiledEntry; verdict: NameVerdict }> {
  return SENSITIVE_FILES.map((entry) => ({
    test: compileEntry(entry, nocase),
    verdict: entry.privateKeyOnly ? 'private-key' : 'sensitive',
  }));
}

/**
 * One expression every name a row of the table can catch matches: its basename globs, and the last names of its path
 * endings. Most names fail it at once, where the rows would be tried one by one (Grep judges every file it lists).
 */
function compileCandidates(nocase: boolean): RegExp {
  const sources = SENSITIVE_FILES.map(
    (entry) => basenameGlobRegExp(path.posix.basename(entry.pattern), nocase).source,
  );
  return new RegExp(sources.map((source) => `(?:${source})`).join('|'), nocase ? 'i' : '');
}

/**
 * The directories, relative to a home or workspace directory, where the table's files usually live: the directory
 * itself, the directories of the path endings, and each entry's `usualDir`.
 */
export const USUAL_SENSITIVE_DIRS: readonly string[] = [
  ...new Set([
    '',
    ...SENSITIVE_FILES.map(
      (entry) => entry.usualDir ?? (entry.pattern.includes('/') ? path.posix.dirname(entry.pattern) : ''),
    ),
  ]),
];

/**
 * Compiles the docs/paths.md#sensitive-files rules plus a host's `extraPatterns` into one name test.
 * `extraPatterns` are basename globs; one containing `/` is matched against the whole `/`-separated path instead.
 * Case-insensitive only on Windows.
 */
export function createSensitiveNameTest(
  extraPatterns: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): SensitiveNameTest {
  const nocase = platform === 'win32';
  const pathApi = pathApiFor(platform);
  const fold = (text: string): string => (nocase ? text.toLowerCase() : text);
  const safe = new Set(SAFE_BASENAMES.map(fold));
  // Compiled here, once per test made (a runtime's policy), in its one case mode: Grep judges every file it lists
  // with it; compiling both modes at import cost every process that loads core, whatever it does.
  const table = compileTable(nocase);
  const candidates = compileCandidates(nocase);
  const extraBasename = compileGlobs(
    extraPatterns.filter((pattern) => !pattern.includes('/')),
    nocase,
  );
  const extraWholePath = compileGlobs(
    extraPatterns.filter((pattern) => pattern.includes('/')),
    nocase,
  );
  // Grep judges every file it lists: `path.basename` walks the whole path a character at a time in JavaScript, which
  // makes it hot enough to be recompiled by the optimising compiler in a fresh process (about 12 M instructions for
  // 834 files, `pnpm bench grep`); `lastIndexOf` finds the same name natively for a path without a trailing `/`.
  const basenameOf =
    platform === 'win32'
      ? (filePath: string) => pathApi.basename(filePath)
      : (filePath: string) =>
          filePath.endsWith('/') ? pathApi.basename(filePath) : filePath.slice(filePath.lastIndexOf('/') + 1);
  return (filePath) => {
    const basename = basenameOf(filePath);
    if (safe.has(fold(basename))) return 'ordinary';
    const slashed = nocase ? filePath.replace(/\\/g, '/') : filePath;
    if (extraBasename(basename) || extraWholePath(slashed)) return 'sensitive';
    if (!candidates.test(basename)) return 'ordinary';
    let verdict: NameVerdict = 'ordinary';
    for (const entry of table) {
      if (!entry.test(basename, slashed)) continue;
      if (entry.verdict === 'sensitive') return 'sensitive';
      verdict = entry.verdict;
    }
    return verdict;
  };
}

/**
 * docs/paths.md#sensitive-files warning (used by Grep) for the skipped files: `{n}` counts distinct paths, the names are the sorted unique
 * basenames, the first 5 shown, then `, ... ({k} files total)` with `k` the number of unique names.
 */
export function sensitiveFilesWarning(filePaths: readonly string[]): string {
  const paths = [...new Set(filePaths)];
  const names = [...new Set(paths.map((filePath) => path.basename(filePath)))].sort();
  let shown = names.slice(0, WARNING_NAME_LIMIT).join(', ');
  if (names.length > WARNING_NAME_LIMIT) shown += `, ... (${names.length} files total)`;
  return (
    `Skipped ${paths.length} sensitive file(s) (${shown}) to protect secrets. ` +
    'These files may contain credentials or private keys.'
  );
}
