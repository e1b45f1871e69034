import type micromatchModule from 'micromatch';
import { pathToFileURL } from 'node:url';
import { importRetrying, resolvedModuleUrl } from '@kimi-tools/core/toolkit';
import { moduleFile } from '../common/module-file.js';
import { GLOB_MAX_BRACE_EXPANSION } from '../limits.js';
import { braceExpansionCount } from './brace-count.js';
import { compilePathMatcher, compileSegmentMatcher, withoutEscapes } from './wildcard-match.js';

/** Options every Glob match uses: wildcards match dot files and dot directories; case-sensitive. */
const MATCH_OPTIONS = { dot: true } as const;

/** micromatch's API; loaded only for a pattern that needs it (braces, extglobs...), see {@link loadPatternEngine}. */
export type Micromatch = typeof micromatchModule;

/** Characters that make a path segment something other than a literal name. */
const GLOB_SYNTAX = /[*?[\]{}()!\\]/;

/**
 * Why a pattern is refused before any file-system access, or `null` when it is fine: `emptySegment` is a `/` at the
 * end or a `//` (micromatch cannot compile an empty segment), `rangeTooLarge` a brace range past
 * {@link GLOB_MAX_BRACE_EXPANSION} patterns (without its expansion, micromatch would read it as a character class).
 */
export type GlobPatternProblem = 'empty' | 'escapes' | 'emptySegment' | 'rangeTooLarge' | 'tooComplex' | null;

/**
 * micromatch, which backtracks, matches only patterns the bounded matcher cannot take (extglobs, a leading `!`,
 * POSIX classes, braces too large to expand); with at most this many wildcards its cost stays polynomial of low degree.
 */
export const MAX_BACKTRACKING_WILDCARDS = 3;

/** A `{x..y}` brace range (numbers or letters, an optional step). */
const BRACE_RANGE = /\{(?:-?\d+|[A-Za-z])\.\.(?:-?\d+|[A-Za-z])(?:\.\.-?\d+)?\}/;

/** A pattern ready to drive a directory walk. */
export interface CompiledGlob {
  /** Whether a `/`-separated path relative to the search directory matches. */
  matches(relativePath: string): boolean;
  /** Directories (relative, `''` = the search directory) the walk starts from; none lies inside another. */
  startDirs: string[];
  /** Whether some descendant of this directory (relative path) could match, so the walk must enter it. */
  mayContainMatches(relativeDir: string): boolean;
  /** `false` when no path ending in this name can match (a quick filter; `true` decides nothing). */
  nameMayMatch(name: string): boolean;
  /** Whether {@link mayContainMatches} says yes to every directory (each pattern starts with `**`): no need to ask. */
  entersEveryDirectory: boolean;
  /**
   * Whether {@link nameMayMatch} decides the match alone, at any depth (each pattern is `**\/` and one segment the
   * bounded matcher takes): the walk then skips matching the whole path.
   */
  nameDecides: boolean;
}

/**
 * micromatch when `pattern` needs it (braces to expand, syntax the bounded matcher leaves to it), else `undefined`:
 * most patterns never load it, which keeps it out of the import and the call.
 */
export async function loadPatternEngine(pattern: string): Promise<Micromatch | undefined> {
  if (compilePathMatcher(pattern) !== null) return undefined;
  const url = resolvedModuleUrl('micromatch', pathToFileURL(moduleFile()).href);
  return (await importRetrying(() => import('micromatch'), url)).default;
}

function engineFor(micromatch: Micromatch | undefined): Micromatch {
  if (micromatch === undefined) throw new Error('micromatch was not loaded for this pattern.');
  return micromatch;
}

function expandBraces(pattern: string, micromatch: Micromatch | undefined): string[] | null {
  // Escaped braces (`\{a,b\}`) are literal: micromatch would give the pattern back as it is.
  if (!withoutEscapes(pattern).includes('{')) return [pattern];
  // Counted first: a pattern of a few dozen brace groups would expand to billions of strings.
  if (braceExpansionCount(pattern, GLOB_MAX_BRACE_EXPANSION) > GLOB_MAX_BRACE_EXPANSION) return null;
  try {
    // Escapes kept: `\{a,b\}` names a file called `{a,b}`, and micromatch must still see them escaped.
    const expanded = engineFor(micromatch).braces(pattern, { expand: true, keepEscaping: true });
    return expanded.length > 0 && expanded.length <= GLOB_MAX_BRACE_EXPANSION ? expanded : null;
  } catch {
    return null;
  }
}

/**
 * The alternatives of `pattern`'s braces (`*.{ts,tsx}`: `*.ts`, `*.tsx`), or `null` when they are too many to expand.
 * `micromatch`: from {@link loadPatternEngine} for a pattern with braces.
 */
export function braceAlternatives(pattern: string, micromatch: Micromatch | undefined): string[] | null {
  return expandBraces(pattern, micromatch);
}

function hasParentSegment(pattern: string): boolean {
  return pattern.split(/[\\/]/).includes('..');
}

/**
 * A leading `/`, or a leading `\` that escapes no glob character (`\*`, `\!`, a final space: a name taken literally,
 * as `readShownGlob` writes one).
 */
const ABSOLUTE = /^(?:\/|\\(?![\\*?[\]{}()!#|"\s\u0085]))/;

/** A drive letter (`C:/x`, or drive-relative `c:x`): only on Windows; elsewhere `c:notes.txt` is a name like any other. */
const DRIVE = /^[A-Za-z]:/;

/**
 * docs/glob.md checks: empty, absolute, or with a `..` segment (also after brace expansion). `micromatch`: from
 * {@link loadPatternEngine} for this pattern; `platform`: the searched file system's, which decides what is absolute.
 */
export function checkGlobPattern(
  pattern: string,
  micromatch?: Micromatch,
  platform: NodeJS.Platform = process.platform,
): GlobPatternProblem {
  if (pattern.length === 0) return 'empty';
  if (ABSOLUTE.test(pattern) || (platform === 'win32' && DRIVE.test(pattern))) return 'escapes';
  if (hasParentSegment(pattern)) return 'escapes';
  // A `..` inside braces counts too; a pattern too large to expand is judged on its text.
  const expanded = expandBraces(pattern, micromatch);
  if (expanded ? expanded.some(hasParentSegment) : pattern.replace(BRACE_RANGE, '').includes('..')) {
    return 'escapes';
  }
  if (expanded === null && BRACE_RANGE.test(pattern)) return 'rangeTooLarge';
  if ((expanded ?? [pattern]).some(hasEmptySegment)) return 'emptySegment';
  if ((expanded ?? [pattern]).some(needsBacktracking)) return 'tooComplex';
  return null;
}

function needsBacktracking(pattern: string): boolean {
  if (compilePathMatcher(pattern) !== null) return false;
  // An escaped `*` is a literal character, no wildcard.
  return (withoutEscapes(pattern).match(/\*+/g) ?? []).length > MAX_BACKTRACKING_WILDCARDS;
}

/** The bounded matcher where it applies, micromatch for the rest (see {@link MAX_BACKTRACKING_WILDCARDS}). */
export function pathMatcher(
  pattern: string,
  micromatch: Micromatch | undefined,
): (relativePath: string) => boolean {
  return compilePathMatcher(pattern) ?? engineFor(micromatch).matcher(pattern, MATCH_OPTIONS);
}

function segmentMatcher(segment: string, micromatch: Micromatch | undefined): (name: string) => boolean {
  return compileSegmentMatcher(segment) ?? engineFor(micromatch).matcher(segment, MATCH_OPTIONS);
}

function hasEmptySegment(pattern: string): boolean {
  return normalizeGlobPattern(pattern).split('/').includes('');
}

/**
 * A pattern ending in `/**` matches what is below the directory, never the directory itself (micromatch would also
 * match `src` for `src/**`): it becomes `/**\/*`.
 */
function descendantsOnly(pattern: string): string {
  return pattern.endsWith('/**') ? `${pattern}/*` : pattern;
}

/** Drops leading `./` segments, which never appear in the relative paths the walk produces. */
export function normalizeGlobPattern(pattern: string): string {
  const result = withoutLeadingDotSlash(pattern);
  return result.length === 0 ? '**' : result;
}

function withoutLeadingDotSlash(pattern: string): string {
  let result = pattern;
  while (result.startsWith('./')) result = result.slice(2);
  return result;
}

function isLiteralSegment(segment: string): boolean {
  return segment.length > 0 && segment !== '.' && !GLOB_SYNTAX.test(segment);
}

/** Leading literal directories of a brace-free pattern: `src/lib/**\/*.ts` → `src/lib`. */
function staticBase(pattern: string): string {
  const segments = pattern.split('/');
  const literal: string[] = [];
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index] as string;
    if (!isLiteralSegment(segment)) break;
    literal.push(segment);
  }
  return literal.join('/');
}

function isInside(child: string, parent: string): boolean {
  return parent === '' || child === parent || child.startsWith(`${parent}/`);
}

/** Keeps only the outermost directories, so no part of the tree is walked twice. */
function outermost(dirs: string[]): string[] {
  const sorted = [...new Set(dirs)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const dir of sorted) {
    if (!kept.some((parent) => isInside(dir, parent))) kept.push(dir);
  }
  return kept;
}

type SegmentTest = 'globstar' | ((segment: string) => boolean);

/**
 * For a brace-free pattern, decides from the leading segments whether a directory can hold matches:
 * `src/*\/test/**` lets `src/a` and `src/a/test/x` in, but not `docs` or `src/a/b`.
 */
function segmentPruner(
  pattern: string,
  micromatch: Micromatch | undefined,
): (relativeDir: string) => boolean {
  const tests: SegmentTest[] = pattern
    .split('/')
    .map((segment) => (segment === '**' ? 'globstar' : segmentMatcher(segment, micromatch)));
  return (relativeDir) => {
    const dirSegments = relativeDir.split('/');
    for (let index = 0; index < dirSegments.length; index++) {
      const test = tests[index];
      if (test === undefined) return false;
      if (test === 'globstar') return true;
      if (!test(dirSegments[index] as string)) return false;
    }
    return tests.length > dirSegments.length;
  };
}

/** Compiles a checked, normalised pattern (see {@link checkGlobPattern}; `micromatch` as there). */
export function compileGlob(checkedPattern: string, micromatch?: Micromatch): CompiledGlob {
  const pattern = descendantsOnly(checkedPattern);
  // Each alternative drops its leading `./` too (`{./a,b}`), as the whole pattern did; one left empty (`{./,a}`) names
  // the search directory itself, which Glob never lists.
  const expanded =
    expandBraces(pattern, micromatch)
      ?.map(withoutLeadingDotSlash)
      .filter((each) => each !== '')
      .map(descendantsOnly) ?? null;
  // Matching the expansion keeps brace ranges (`{1..3}`) exact; micromatch alone reads them as character classes.
  const matchers = (expanded ?? [pattern]).map((each) => pathMatcher(each, micromatch));
  const matches =
    matchers.length === 1
      ? (matchers[0] as (relativePath: string) => boolean)
      : (relativePath: string) => matchers.some((matcher) => matcher(relativePath));
  // Extglobs may hold `/` inside parentheses, and an unexpanded brace may too: such patterns are only narrowed
  // to the literal prefix before their first special character.
  const prunable = expanded !== null && !withoutEscapes(pattern).includes('(');
  if (!prunable) {
    return {
      matches,
      startDirs: [staticBase(pattern)],
      mayContainMatches: () => true,
      nameMayMatch: () => true,
      entersEveryDirectory: true,
      nameDecides: false,
    };
  }
  const pruners = expanded.map((each) => segmentPruner(each, micromatch));
  return {
    matches,
    startDirs: outermost(expanded.map(staticBase)),
    mayContainMatches: (relativeDir) => pruners.some((pruner) => pruner(relativeDir)),
    nameMayMatch: lastSegmentFilter(expanded, micromatch),
    // A pruner whose first segment is `**` lets every directory in (see segmentPruner).
    entersEveryDirectory: expanded.every((each) => each.split('/')[0] === '**'),
    nameDecides: expanded.every(isAnyDepthName),
  };
}

/**
 * `**\/NAME` with a NAME the bounded matcher takes: the bounded path matcher lets the `**` take every segment but the
 * last, so a path matches exactly when its last name matches NAME — what {@link lastSegmentFilter} tests.
 */
function isAnyDepthName(pattern: string): boolean {
  const segments = pattern.split('/');
  return (
    segments.length === 2 &&
    segments[0] === '**' &&
    segments[1] !== '**' &&
    compilePathMatcher(pattern) !== null &&
    compileSegmentMatcher(segments[1] as string) !== null
  );
}

/**
 * A path can only match if its last name matches the pattern's last segment (unless that is `**` or empty), so
 * files whose name fails every last segment are skipped before their path is even built.
 */
function lastSegmentFilter(
  patterns: readonly string[],
  micromatch: Micromatch | undefined,
): (name: string) => boolean {
  const lastSegments = patterns.map((each) => each.slice(each.lastIndexOf('/') + 1));
  if (lastSegments.some((segment) => segment === '' || segment === '**')) return () => true;
  const tests = lastSegments.map((segment) => segmentMatcher(segment, micromatch));
  return tests.length === 1
    ? (tests[0] as (name: string) => boolean)
    : (name) => tests.some((test) => test(name));
}
