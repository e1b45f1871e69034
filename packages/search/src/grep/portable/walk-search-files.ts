import type { FileSystem } from '@kimi-tools/core/fs';
import {
  ignoredEntryTest,
  levelForDirectory,
  loadIgnoreRules,
  pathApiFor,
  Slots,
  type IgnoreLevel,
  type IgnoreRuleCache,
} from '@kimi-tools/core/toolkit';
import type { FileTypeTest } from './file-types.js';
import type { OverrideGlobs } from './override-globs.js';

/** The ignore files ripgrep reads in each directory, lowest precedence first. */
export const RIPGREP_IGNORE_FILES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

/** Directories read at once: enough to keep a remote backend's link busy. */
const READ_AT_ONCE = 16;

/** ripgrep has no name its ignore logic always leaves out: the version-control folders are globs (OverrideGlobs). */
const NO_NAME = (): boolean => false;

/** What to walk and how, as ripgrep walks a directory with the arguments Grep gives it. */
export interface SearchWalk {
  fs: FileSystem;
  /** The search directory (absolute). */
  base: string;
  overrides: OverrideGlobs;
  /** Grep's `type`, or `null`. */
  type: FileTypeTest | null;
  includeIgnored: boolean;
  cache: IgnoreRuleCache;
  signal?: AbortSignal;
  /** Whether the search has stopped (the walk then ends early). */
  stopped(): boolean;
  /** A file to search, by its path relative to `base` (in the backend's separators). */
  onFile(relativePath: string): void;
  /** A folder below `base` that could not be read (the walk goes on without it). */
  onError(relativePath: string, error: unknown): void;
}

/**
 * Walks the search directory as ripgrep does with Grep's arguments: hidden files included, symbolic links neither
 * followed nor searched, only regular files searched; the overrides first (`glob`, version-control folders), then the
 * ignore files (`.gitignore`, `.ignore`, `.rgignore`, of every directory above too) unless `include_ignored`, then the
 * `type`. Throws when the search directory itself cannot be read.
 */
export async function walkSearchFiles(walk: SearchWalk): Promise<void> {
  const paths = pathApiFor(walk.fs.platform);
  const slots = new Slots(READ_AT_ONCE);
  const levels = walk.includeIgnored ? [] : await ancestorLevels(walk, paths);

  // Relative paths are `/`-separated (as globs and ignore rules read them); only what is shown uses the backend's own.
  const shown =
    paths.sep === '/'
      ? (relative: string) => relative
      : (relative: string) => relative.split('/').join(paths.sep);
  const visit = async (relativeDir: string, absoluteDir: string, inherited: readonly IgnoreLevel[]) => {
    if (walk.stopped()) return;
    let entries;
    try {
      entries = await slots.run(() => walk.fs.readdir(absoluteDir));
    } catch (error) {
      if (relativeDir === '') throw error;
      walk.onError(shown(relativeDir), error);
      return;
    }
    let levels = inherited;
    if (!walk.includeIgnored) {
      const present = RIPGREP_IGNORE_FILES.filter((name) => entries.some((entry) => entry.name === name));
      const rules =
        present.length === 0
          ? null
          : await loadIgnoreRules(walk.fs, absoluteDir, present, { signal: walk.signal, cache: walk.cache });
      if (rules !== null) levels = [...levels, levelForDirectory(rules, relativeDir)];
    }
    const isIgnored = walk.includeIgnored ? NO_NAME : ignoredEntryTest(relativeDir, levels, NO_NAME);
    const below: Array<Promise<void>> = [];
    for (const entry of entries) {
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue;
      const name = entry.name;
      const relative = relativeDir === '' ? name : `${relativeDir}/${name}`;
      const verdict = walk.overrides.verdict(relative, name, isDirectory);
      if (verdict === 'exclude') continue;
      if (verdict === 'none') {
        if (isIgnored(name, isDirectory)) continue;
        if (!isDirectory && walk.type !== null && !walk.type(name)) continue;
      }
      if (isDirectory) below.push(visit(relative, paths.join(absoluteDir, name), levels));
      else walk.onFile(shown(relative));
    }
    await Promise.all(below);
  };
  await visit('', walk.base, levels);
}

/** The rules of every directory above the search directory, up to the root, as ripgrep reads them. */
async function ancestorLevels(
  walk: SearchWalk,
  paths: ReturnType<typeof pathApiFor>,
): Promise<IgnoreLevel[]> {
  const levels: IgnoreLevel[] = [];
  if (paths.dirname(walk.base) === walk.base) return levels;
  for (let dir = paths.dirname(walk.base); ; dir = paths.dirname(dir)) {
    const rules = await loadIgnoreRules(walk.fs, dir, RIPGREP_IGNORE_FILES, {
      signal: walk.signal,
      cache: walk.cache,
      parentsUnknown: true,
    });
    if (rules !== null) {
      const local = paths.relative(dir, walk.base).split(paths.sep).join('/');
      levels.unshift({
        rules,
        toLocal: (relativePath) => (relativePath === '' ? local : `${local}/${relativePath}`),
      });
    }
    if (paths.dirname(dir) === dir) return levels;
  }
}
