import path from 'node:path';
import { compileGlobs, type GlobTest } from './glob-matcher.js';
import { pathApiFor } from './platform-path.js';

/** Basename globs of files that usually hold secrets (docs/paths.md#sensitive-files). */
const SENSITIVE_BASENAMES: readonly string[] = [
  '.env',
  '.env.*',
  'id_rsa',
  'id_ed25519',
  'id_ecdsa',
  'credentials',
];

/** Templates that look like `.env.*` but are meant to be shared. */
const SAFE_BASENAMES: readonly string[] = ['.env.example', '.env.sample', '.env.template'];

/** Path endings that are sensitive wherever they live. */
const SENSITIVE_SUFFIXES: readonly string[] = ['.aws/credentials', '.gcp/credentials'];

/** How many names the warning spells out before summarising. */
const WARNING_NAME_LIMIT = 5;

/** The built-in basename globs, compiled once per case mode. */
const BUILT_IN = {
  exact: compileGlobs(SENSITIVE_BASENAMES, false),
  folded: compileGlobs(SENSITIVE_BASENAMES, true),
} as const;

/** Tells whether a file path names a probably-secret file. */
export type SensitiveTest = (filePath: string) => boolean;

/**
 * Compiles the docs/paths.md#sensitive-files rules plus runtime patterns into one test. `extraPatterns` are basename globs; a pattern
 * containing `/` is matched against the whole `/`-separated path instead. Case-insensitive only on Windows.
 */
export function createSensitiveTest(
  extraPatterns: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): SensitiveTest {
  const nocase = platform === 'win32';
  const pathApi = pathApiFor(platform);
  const fold = (text: string): string => (nocase ? text.toLowerCase() : text);
  const safe = new Set(SAFE_BASENAMES.map(fold));
  const builtIn: GlobTest = nocase ? BUILT_IN.folded : BUILT_IN.exact;
  const extraBasename = compileGlobs(
    extraPatterns.filter((pattern) => !pattern.includes('/')),
    nocase,
  );
  const extraWholePath = compileGlobs(
    extraPatterns.filter((pattern) => pattern.includes('/')),
    nocase,
  );
  return (filePath) => {
    const basename = pathApi.basename(filePath);
    if (safe.has(fold(basename))) return false;
    if (builtIn(basename) || extraBasename(basename)) return true;
    const slashed = nocase ? filePath.replace(/\\/g, '/') : filePath;
    const folded = fold(slashed);
    if (SENSITIVE_SUFFIXES.some((suffix) => folded === suffix || folded.endsWith(`/${suffix}`))) return true;
    return extraWholePath(slashed);
  };
}

/**
 * docs/paths.md#sensitive-files: whether a file probably holds secrets (built-in basename globs, the `.env` template exceptions, the
 * `.aws/credentials` / `.gcp/credentials` endings, and `extraPatterns` as in {@link createSensitiveTest}).
 * Checking many files? Compile once with {@link createSensitiveTest}.
 */
export function isSensitivePath(
  filePath: string,
  extraPatterns: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): boolean {
  return createSensitiveTest(extraPatterns, platform)(filePath);
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
