import path from 'node:path';
import micromatch from 'micromatch';
import { pathApiFor } from './platform-path.js';

/** Basename globs of files that usually hold secrets (SPEC 1.3). */
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

function toSlashes(filePath: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? filePath.replace(/\\/g, '/') : filePath;
}

/**
 * SPEC 1.3: whether a file probably holds secrets. Built-in basename globs, the `.env` template exceptions, and the
 * `.aws/credentials` / `.gcp/credentials` endings. `extraPatterns` (from the runtime) are basename globs; a pattern
 * containing `/` is matched against the whole `/`-separated path instead. Case-insensitive only on Windows.
 */
export function isSensitivePath(
  filePath: string,
  extraPatterns: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): boolean {
  const nocase = platform === 'win32';
  const fold = (text: string): string => (nocase ? text.toLowerCase() : text);
  const basename = pathApiFor(platform).basename(filePath);
  if (SAFE_BASENAMES.some((safe) => fold(safe) === fold(basename))) return false;
  const options = { dot: true, nocase };
  if (micromatch.isMatch(basename, SENSITIVE_BASENAMES as string[], options)) return true;
  const slashed = toSlashes(filePath, platform);
  const folded = fold(slashed);
  if (SENSITIVE_SUFFIXES.some((suffix) => folded === suffix || folded.endsWith(`/${suffix}`))) return true;
  for (const pattern of extraPatterns) {
    const subject = pattern.includes('/') ? slashed : basename;
    if (micromatch.isMatch(subject, pattern, options)) return true;
  }
  return false;
}

/**
 * SPEC 1.3 warning (used by Grep) for the skipped files: `{n}` counts distinct paths, the names are the sorted unique
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
