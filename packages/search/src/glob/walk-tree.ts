import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CompiledGlob } from './glob-pattern.js';
import {
  IGNORE_FILE_NAMES,
  isIgnoredEntry,
  isVcsName,
  levelForDirectory,
  loadIgnoreRules,
  type IgnoreLevel,
} from '@kimi-tools/core/toolkit';

/** Entries of ignored subtrees visited at most to count the matches ignore rules hide (bounds the hint's cost). */
export const HIDDEN_WALK_BUDGET = 10_000;

/** Ignored folders read at once while counting. */
const HIDDEN_WALK_CONCURRENCY = 8;

/** What to walk and how. */
export interface WalkRequest {
  /** Real absolute path of the search directory. */
  root: string;
  glob: CompiledGlob;
  includeDirs: boolean;
  includeIgnored: boolean;
  /** Rules of the directories above `root` (see `loadAncestorIgnoreLevels`). */
  ancestorLevels: IgnoreLevel[];
  /** Workspace deny rules on real paths; denied entries are neither listed nor entered. */
  isDenied?: (absolutePath: string) => boolean;
  signal?: AbortSignal;
  /** Entries ignored folders may cost to count hidden matches (default {@link HIDDEN_WALK_BUDGET}). */
  hiddenWalkBudget?: number;
}

/** Matching paths (unsorted, `/`-separated, relative to the root) and how many more ignore rules hid. */
export interface WalkResult {
  matches: string[];
  hiddenMatches: number;
}

interface DirectoryVisit {
  relativeDir: string;
  absoluteDir: string;
  hidden: boolean;
  levels: readonly IgnoreLevel[];
  /** Whether `levels` already holds this directory's own ignore files. */
  ownRulesLoaded: boolean;
}

/** `path.join` for a clean directory and one name, without re-normalising (it runs once per visited entry). */
function childPath(directory: string, name: string): string {
  return directory.endsWith(path.sep) ? directory + name : directory + path.sep + name;
}

/** Walks only what the pattern can reach; symlinked directories are listed but never entered. */
class TreeWalk {
  private readonly matches: string[] = [];
  private hiddenMatches = 0;
  private hiddenBudget: number;
  private readonly matchedPrefixes = new Set<string>();
  private readonly hiddenQueue: DirectoryVisit[] = [];

  constructor(private readonly request: WalkRequest) {
    this.hiddenBudget = request.hiddenWalkBudget ?? HIDDEN_WALK_BUDGET;
  }

  async run(): Promise<WalkResult> {
    const visits = await Promise.all(this.request.glob.startDirs.map((dir) => this.reachStartDir(dir)));
    await Promise.all(visits.map((visit) => (visit ? this.visit(visit) : undefined)));
    if (!this.request.includeIgnored) await this.countHidden();
    return { matches: this.matches, hiddenMatches: this.hiddenMatches };
  }

  /** Goes down the pattern's literal prefix, applying ignore rules and matching each directory on the way. */
  private async reachStartDir(startDir: string): Promise<DirectoryVisit | null> {
    let visit: DirectoryVisit = {
      relativeDir: '',
      absoluteDir: this.request.root,
      hidden: false,
      levels: this.request.ancestorLevels,
      ownRulesLoaded: false,
    };
    if (startDir === '') return visit;
    visit = { ...visit, levels: await this.withOwnRules(visit, IGNORE_FILE_NAMES), ownRulesLoaded: true };
    for (const name of startDir.split('/')) {
      const relativePath = visit.relativeDir === '' ? name : `${visit.relativeDir}/${name}`;
      const absolutePath = path.join(visit.absoluteDir, name);
      let isDirectory: boolean;
      try {
        isDirectory = (await lstat(absolutePath)).isDirectory();
      } catch {
        return null;
      }
      if (!isDirectory || this.request.isDenied?.(absolutePath)) return null;
      const hidden =
        visit.hidden ||
        (!this.request.includeIgnored && isIgnoredEntry(name, relativePath, true, visit.levels));
      if (hidden && !this.mayCountHidden(name)) return null;
      // Several start dirs may share prefix directories: match each of those once.
      if (
        this.request.includeDirs &&
        this.request.glob.matches(relativePath) &&
        !this.matchedPrefixes.has(relativePath)
      ) {
        this.matchedPrefixes.add(relativePath);
        this.record(relativePath, hidden);
      }
      visit = {
        relativeDir: relativePath,
        absoluteDir: absolutePath,
        hidden,
        levels: visit.levels,
        ownRulesLoaded: true,
      };
      if (!hidden) visit = { ...visit, levels: await this.withOwnRules(visit, IGNORE_FILE_NAMES) };
    }
    return visit;
  }

  private async withOwnRules(
    visit: DirectoryVisit,
    names: readonly string[],
  ): Promise<readonly IgnoreLevel[]> {
    if (this.request.includeIgnored || names.length === 0) return visit.levels;
    const rules = await loadIgnoreRules(visit.absoluteDir, names);
    return rules === null ? visit.levels : [...visit.levels, levelForDirectory(rules, visit.relativeDir)];
  }

  private mayCountHidden(name: string): boolean {
    return !isVcsName(name) && this.hiddenBudget > 0;
  }

  private record(relativePath: string, hidden: boolean): void {
    if (hidden) this.hiddenMatches++;
    else this.matches.push(relativePath);
  }

  private async visit(visit: DirectoryVisit): Promise<void> {
    this.request.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(visit.absoluteDir, { withFileTypes: true });
    } catch (error) {
      // An unreadable folder deep in the tree should not spoil the whole search; the search directory should.
      if (visit.relativeDir === '') throw error;
      return;
    }
    if (visit.hidden) this.hiddenBudget -= entries.length;
    let levels = visit.levels;
    if (!visit.ownRulesLoaded && !visit.hidden) {
      const names = IGNORE_FILE_NAMES.filter((name) => entries.some((entry) => entry.name === name));
      levels = await this.withOwnRules(visit, names);
    }
    const { glob, includeDirs, includeIgnored, isDenied } = this.request;
    const children: Array<Promise<void>> = [];
    const symlinkChecks: Array<Promise<void>> = [];
    for (const entry of entries) {
      const name = entry.name;
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !glob.nameMayMatch(name)) continue;
      const relativePath = visit.relativeDir === '' ? name : `${visit.relativeDir}/${name}`;
      const matched = glob.matches(relativePath);
      const descend = isDirectory && glob.mayContainMatches(relativePath);
      if (!matched && !descend) continue;
      const absolutePath = childPath(visit.absoluteDir, name);
      if (isDenied?.(absolutePath)) continue;
      const hidden =
        visit.hidden || (!includeIgnored && isIgnoredEntry(name, relativePath, isDirectory, levels));
      if (matched) {
        if (includeDirs || (!isDirectory && !entry.isSymbolicLink())) this.record(relativePath, hidden);
        else if (!isDirectory) symlinkChecks.push(this.recordIfFileLink(absolutePath, relativePath, hidden));
      }
      if (!descend) continue;
      const child: DirectoryVisit = {
        relativeDir: relativePath,
        absoluteDir: absolutePath,
        hidden,
        levels,
        ownRulesLoaded: false,
      };
      if (!hidden) children.push(this.visit(child));
      else if (!isVcsName(name)) this.hiddenQueue.push(child);
    }
    await Promise.all(symlinkChecks);
    await Promise.all(children);
  }

  /**
   * Ignored folders are walked only to count the matches they hide, after the real walk, breadth-first across all of
   * them (so one huge ignored folder does not starve the others), a few at a time, until the budget is spent.
   */
  private async countHidden(): Promise<void> {
    let next = 0;
    while (next < this.hiddenQueue.length && this.hiddenBudget > 0) {
      const batch = this.hiddenQueue.slice(next, next + HIDDEN_WALK_CONCURRENCY);
      next += batch.length;
      await Promise.all(batch.map((visit) => this.visit(visit)));
    }
  }

  /** With `include_dirs` false, a symlink counts as a file unless it points to a directory. */
  private async recordIfFileLink(absolutePath: string, relativePath: string, hidden: boolean): Promise<void> {
    try {
      if ((await stat(absolutePath)).isDirectory()) return;
    } catch {
      // A dangling link is not a directory: list it like a file.
    }
    this.record(relativePath, hidden);
  }
}

/** Walks the search directory for Glob. Throws only when the search directory itself cannot be read. */
export function walkTree(request: WalkRequest): Promise<WalkResult> {
  return new TreeWalk(request).run();
}
