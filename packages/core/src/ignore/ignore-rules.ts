import path from 'node:path';
import type { FileSystem } from '../fs/file-system.js';
import { pathExists } from '../fs/stat-if-exists.js';
import { isWithinDirectory } from '../path/containment.js';
import type { Ignore } from 'ignore';
import { ignore } from '../fs/load-on-use.js';
import { readIgnoreFile } from './read-ignore-file.js';
import type { IgnoreRuleCache } from './ignore-rule-cache.js';
import { basenameRuleFilter, type BasenameRuleTest } from './basename-rule-filter.js';
import { pathRuleFilter, ruleLineKind, segmentCount, type PathRuleFilter } from './path-rule-filter.js';

/** Version-control folders the search tools and directory listings skip. */
export const VCS_DIRECTORIES: readonly string[] = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'];

/** Ignore files read in every directory; later files take precedence, as in ripgrep. */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore'];

const VCS_NAMES = new Set(VCS_DIRECTORIES);

/**
 * Answers one rule set remembers before it forgets them all: its verdicts by basename, and the `ignore` package's own
 * memory of every path it tested (a path and each of its parents). A set kept across calls (IgnoreRuleCache) thus
 * holds at most about half a MB of them, whatever the trees it sees.
 */
export const IGNORE_SET_MAX_REMEMBERED = 4096;

/** What the rules of one ignore level say about a path. */
type Verdict = 'ignored' | 'unignored' | 'none';

/** The verdict on one entry of a directory, by its name. */
export type VerdictOfEntry = (name: string, isDirectory: boolean) => Verdict;

/**
 * The rules of one directory's ignore files. The walk never enters an ignored directory, so an entry met in the walk
 * is tested by itself (its parents are already known to be kept). A rule with no `/` before its end can only look at
 * the basename, so the verdicts of those rules are cached by basename: `index.ts` in a thousand folders is tested
 * once. The other rules (on paths) are tested, with all the rules in their order, only for a path that one of them
 * might match ({@link pathRuleFilter}); any other path gets the basename verdict, as git would give it, and a name no
 * basename rule can match ({@link basenameRuleFilter}) gets 'none' without a test or a cache entry. Rules of a
 * directory above the search directory (`parentsUnknown`) must see whole paths instead: the search directory itself,
 * or one of its parents, may be what they ignore.
 */
export class IgnoreRuleSet {
  /** All the rules, compiled on first use (the package compiles each rule when it is added). */
  private allRules: Ignore | null = null;
  /** The basename rules alone, in their order, compiled on first use; with no path rule, all the rules. */
  private basenameOnly: Ignore | null = null;
  private readonly byBasename = new Map<string, Verdict>();
  /** Answers remembered since the set last forgot them (see {@link IGNORE_SET_MAX_REMEMBERED}). */
  private remembered = 0;
  /** Whether an entry of a directory might match a path rule; `null` when there is none. */
  private readonly mayMatchPathRule: PathRuleFilter | null;
  /** Whether a name might match a basename rule; `null`: every name is tested. */
  private readonly mayMatchBasenameRule: BasenameRuleTest | null;
  /** The verdicts on the entries of a directory no path rule concerns: one function for all of them. */
  private readonly basenameVerdictOfEntry: VerdictOfEntry = (name, isDirectory) =>
    this.basenameVerdict(name, isDirectory);

  /** The rules of `texts`; `parentsUnknown`: they lie above the search directory (see above). */
  static create(texts: readonly string[], parentsUnknown = false): IgnoreRuleSet {
    return new IgnoreRuleSet(texts, parentsUnknown);
  }

  private constructor(
    private readonly texts: readonly string[],
    /** Whole paths are tested (see above). */
    private readonly parentsUnknown: boolean,
  ) {
    this.mayMatchPathRule = parentsUnknown ? null : pathRuleFilter(texts);
    this.mayMatchBasenameRule = parentsUnknown ? null : basenameRuleFilter(texts);
  }

  /** Answers the set remembers now, never more than {@link IGNORE_SET_MAX_REMEMBERED}. */
  get rememberedAnswers(): number {
    return this.remembered;
  }

  /** `localPath` is relative to the rules' directory; `name` is its last segment. */
  verdict(localPath: string, name: string, isDirectory: boolean): Verdict {
    return this.inDirectory(parentOf(localPath, name))(name, isDirectory);
  }

  /**
   * The verdicts on the entries of one directory (`localDir`, relative to the rules' directory; `''` for that
   * directory itself): what depends on the directory alone is worked out once, and an entry no path rule can match
   * costs no path.
   */
  inDirectory(localDir: string): VerdictOfEntry {
    if (this.parentsUnknown) return (name, isDirectory) => this.pathVerdict(localDir, name, isDirectory);
    const mayMatchPathRule = this.mayMatchPathRule?.(localDir) ?? null;
    // Most folders: no path rule can concern them, and one function serves them all (a walk reads thousands).
    if (mayMatchPathRule === null) return this.basenameVerdictOfEntry;
    return (name, isDirectory) =>
      mayMatchPathRule(name)
        ? this.pathVerdict(localDir, name, isDirectory)
        : this.basenameVerdict(name, isDirectory);
  }

  private pathVerdict(localDir: string, name: string, isDirectory: boolean): Verdict {
    // The `ignore` package remembers a path tested and each of its parents.
    this.remember(localDir === '' ? 1 : segmentCount(localDir) + 1);
    const localPath = localDir === '' ? name : `${localDir}/${name}`;
    return toVerdict(this.rules().test(isDirectory ? `${localPath}/` : localPath));
  }

  private basenameVerdict(name: string, isDirectory: boolean): Verdict {
    if (this.mayMatchBasenameRule?.(name) === false) return 'none';
    const key = isDirectory ? `${name}/` : name;
    let verdict = this.byBasename.get(key);
    if (verdict === undefined) {
      // Twice: the `ignore` package's memory of the name, and this set's.
      this.remember(2);
      verdict = toVerdict(this.basenameRules().test(key));
      this.byBasename.set(key, verdict);
    }
    return verdict;
  }

  /**
   * Counts `answers` about to be remembered; past {@link IGNORE_SET_MAX_REMEMBERED}, forgets every one first (the
   * compiled rules go too: the package keeps its memory in them), so a set kept across calls stays bounded.
   */
  private remember(answers: number): void {
    this.remembered += answers;
    if (this.remembered <= IGNORE_SET_MAX_REMEMBERED) return;
    this.byBasename.clear();
    this.allRules = null;
    this.basenameOnly = null;
    this.remembered = answers;
  }

  private rules(): Ignore {
    this.allRules ??= this.compile(this.texts);
    return this.allRules;
  }

  private basenameRules(): Ignore {
    if (this.mayMatchPathRule === null) return this.rules();
    this.basenameOnly ??= this.compile(this.texts.map(withoutPathRules));
    return this.basenameOnly;
  }

  private compile(texts: readonly string[]): Ignore {
    // Case-sensitive, as git and ripgrep are on Linux.
    const rules = ignore()({ ignorecase: false });
    // One `add` per file: `add` splits a string into lines, but takes each element of an array as a single rule.
    for (const text of texts) rules.add(text);
    return rules;
  }
}

function toVerdict(result: { ignored: boolean; unignored: boolean }): Verdict {
  return result.ignored ? 'ignored' : result.unignored ? 'unignored' : 'none';
}

/** An ignore file's text with its path rules left out (they are blanked, so the rest keeps its order). */
function withoutPathRules(text: string): string {
  return text
    .split(/\r?\n/)
    .map((raw) => (ruleLineKind(raw) === 'path' ? '' : raw))
    .join('\n');
}

/** The rules of one directory's ignore files, and how to express a walk path relative to that directory. */
export interface IgnoreLevel {
  rules: IgnoreRuleSet;
  /**
   * Turns a path relative to the search directory (`''`: the search directory itself) into one relative to the rules'
   * directory (`''`: that directory itself).
   */
  toLocal(relativePath: string): string;
}

/** How ignore files are loaded. */
export interface IgnoreLoadOptions {
  /** Stops the waits of {@link readIgnoreFile} for a file descriptor. */
  signal?: AbortSignal;
  /** Rule sets compiled by earlier loads, reused for the same texts. */
  cache?: IgnoreRuleCache;
}

/**
 * Reads the ignore files of `directory` on `fs` among `names` (the ones known to exist, or all to probe).
 * `parentsUnknown`: the directory lies above the search directory (see {@link IgnoreRuleSet}).
 */
export async function loadIgnoreRules(
  fs: FileSystem,
  directory: string,
  names: readonly string[],
  options: IgnoreLoadOptions & { parentsUnknown?: boolean } = {},
): Promise<IgnoreRuleSet | null> {
  // A plain script may still pass the old positional `parentsUnknown`: refuse it rather than read it as no options.
  if (typeof options !== 'object' || options === null)
    throw new TypeError('loadIgnoreRules takes an options object.');
  const { signal, cache, parentsUnknown = false } = options;
  const texts: string[] = [];
  for (const name of names) {
    const text = await readIgnoreFile(fs, path.join(directory, name), signal);
    if (text !== null) texts.push(text);
  }
  if (texts.length === 0) return null;
  return cache === undefined
    ? IgnoreRuleSet.create(texts, parentsUnknown)
    : cache.ruleSet(texts, parentsUnknown);
}

function toPosix(relativePath: string): string {
  return path.sep === '/' ? relativePath : relativePath.split(path.sep).join('/');
}

/**
 * Ignore rules of the directories on `fs` above the search directory: up to the repository root (the nearest ancestor
 * holding `.git`), or, outside any repository, up to the workspace root that contains the search directory.
 */
export async function loadAncestorIgnoreLevels(
  fs: FileSystem,
  searchDir: string,
  workspaceRoot: string,
  options: IgnoreLoadOptions = {},
): Promise<IgnoreLevel[]> {
  if (await pathExists(fs, path.join(searchDir, '.git'))) return [];
  const candidates: Array<{ dir: string; insideWorkspace: boolean }> = [];
  let foundRepository = false;
  let current = searchDir;
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) break;
    candidates.push({ dir: parent, insideWorkspace: isWithinDirectory(parent, workspaceRoot) });
    if (await pathExists(fs, path.join(parent, '.git'))) {
      foundRepository = true;
      break;
    }
    current = parent;
  }
  const used = foundRepository ? candidates : candidates.filter((candidate) => candidate.insideWorkspace);
  const levels: IgnoreLevel[] = [];
  for (const { dir } of used.reverse()) {
    const rules = await loadIgnoreRules(fs, dir, IGNORE_FILE_NAMES, { ...options, parentsUnknown: true });
    if (rules === null) continue;
    const local = toPosix(path.relative(dir, searchDir));
    levels.push({
      rules,
      toLocal: (relativePath) => (relativePath === '' ? local : `${local}/${relativePath}`),
    });
  }
  return levels;
}

/** The level of a directory's own ignore files, for paths below `relativeDir` (`''` = the search directory). */
export function levelForDirectory(rules: IgnoreRuleSet, relativeDir: string): IgnoreLevel {
  if (relativeDir === '') return { rules, toLocal: (relativePath) => relativePath };
  const cut = relativeDir.length + 1;
  return { rules, toLocal: (relativePath) => relativePath.slice(cut) };
}

/** Whether the walk treats an entry as ignored: VCS folders, `node_modules`, then the ignore files, deepest last. */
export function isIgnoredEntry(
  name: string,
  relativePath: string,
  isDirectory: boolean,
  levels: readonly IgnoreLevel[],
): boolean {
  return ignoredEntryTest(parentOf(relativePath, name), levels)(name, isDirectory);
}

/** The folder of `entryPath`, whose last segment is `name` (`''` for an entry at the top). */
function parentOf(entryPath: string, name: string): string {
  const cut = entryPath.length - name.length - 1;
  return cut < 0 ? '' : entryPath.slice(0, cut);
}

/**
 * {@link isIgnoredEntry} for the entries of one directory (`relativeDir`; `''` for the search directory), with what
 * depends on the directory alone worked out once: a walk asks about every entry of every folder it reads.
 * `alwaysIgnored` names what no ignore file decides (default: the version-control folders and `node_modules`; Grep's
 * portable search, like ripgrep, has no such names: its version-control folders are excluded by globs).
 */
export function ignoredEntryTest(
  relativeDir: string,
  levels: readonly IgnoreLevel[],
  alwaysIgnored: (name: string) => boolean = isAlwaysIgnored,
): (name: string, isDirectory: boolean) => boolean {
  if (levels.length === 0) return alwaysIgnored;
  const verdicts = levels.map((level) => level.rules.inDirectory(level.toLocal(relativeDir)));
  return (name, isDirectory) => {
    if (alwaysIgnored(name)) return true;
    let ignored = false;
    for (const verdict of verdicts) {
      const said = verdict(name, isDirectory);
      if (said === 'ignored') ignored = true;
      else if (said === 'unignored') ignored = false;
    }
    return ignored;
  };
}

/** Version-control folders and `node_modules`, which no ignore file decides. */
function isAlwaysIgnored(name: string): boolean {
  return VCS_NAMES.has(name) || name === 'node_modules';
}

/** Whether a name is a version-control folder (never counted into, even for the hidden-matches hint). */
export function isVcsName(name: string): boolean {
  return VCS_NAMES.has(name);
}
