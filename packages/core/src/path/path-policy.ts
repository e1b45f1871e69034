import {
  Briefs,
  deniedMessage,
  directoryPathMessage,
  EMPTY_PATH_MESSAGE,
  invalidPathMessage,
  notAbsoluteMessage,
  outsideWorkspaceMessage,
  searchOutsideMessage,
  type PathBrief,
} from '../errors.js';
import type { FileStats, FileSystem } from '../fs/file-system.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import { isWithinDirectory } from './containment.js';
import { compileGlobs, type GlobTest } from './glob-matcher.js';
import { checkPathInput, endsWithSeparator, expandPathInput, isDriveRelative } from './normalize-input.js';
import { pathApiFor } from './platform-path.js';
import { realPathAllowMissing } from './real-path.js';
import { SensitiveFiles } from './sensitive-files.js';

/** What a file tool intends to do with a path; it words the relative-outside error. */
export type PathVerb = 'read' | 'write' | 'edit';

/** The runtime settings the policy applies. */
export interface PathPolicySettings {
  /** Absolute working directory; relative paths resolve against it. */
  workDir: string;
  /** Live list of more workspace directories (relative entries resolve against `workDir`). */
  additionalDirs: string[];
  /** Whether absolute paths outside the workspace are allowed. */
  outside: 'allow' | 'deny';
  /** Globs (micromatch, `dot: true`) that refuse a path. */
  deny: readonly string[];
  /** More sensitive-file globs on top of the built-in ones. */
  sensitive: readonly string[];
}

/** Where the policy looks at paths, and the facts of that place; `platform` and `homeDir` are injectable for tests. */
export interface PathPolicyEnvironment {
  /** The file system the paths are on (the runtime's). */
  fs: FileSystem;
  /** Path rules to apply (default `fs.platform`): Windows conversions and case-insensitivity for `win32`. */
  platform?: NodeJS.Platform;
  /** Where `~` points (default `fs.homeDir`). */
  homeDir?: string;
}

/** A path the model gave, in every form the tools need. */
export interface ResolvedPath {
  /** Exactly as the model gave it. */
  input: string;
  /** After `~` expansion and Windows conversions. */
  expanded: string;
  /** Resolved against `workDir`, lexically (no symlinks resolved). */
  absolute: string;
  /** Symlinks of the longest existing prefix resolved, missing tail appended. */
  real: string;
  /** Whether `real` is inside the workspace (workDir + additionalDirs, compared on real paths). */
  inside: boolean;
}

/**
 * Outcome of {@link PathPolicy.resolveFile} and `resolveSearchPath`: the path, or the error result to return as is
 * (`Brief`: the briefs that error can carry).
 */
export type PathResult<Brief extends string = string> =
  { ok: true; path: ResolvedPath } | { ok: false; error: ToolReturnValue<Brief> };

/** The briefs of a refused input (empty, or not a valid path). */
type InputBrief = typeof Briefs.emptyPath | typeof Briefs.invalidPath;

/** `roots`: real and configured workspace roots, for matching deny globs relative to them. */
type Resolution =
  { ok: true; path: ResolvedPath; roots: string[] } | { ok: false; reason: 'empty' | 'invalid' };

/** Whether `real` is a directory on `fs` now (a link to one too); a path that cannot be looked at is none. */
async function isExistingDirectory(fs: FileSystem, real: string): Promise<boolean> {
  try {
    return (await fs.stat(real)).isDirectory();
  } catch {
    return false;
  }
}

function inputError(reason: 'empty' | 'invalid', input: string): ToolReturnValue<InputBrief> {
  if (reason === 'empty') return toolError({ message: EMPTY_PATH_MESSAGE, brief: Briefs.emptyPath });
  return toolError({ message: invalidPathMessage(input), brief: Briefs.invalidPath });
}

function deniedError(shown: string): ToolReturnValue<typeof Briefs.accessDenied> {
  return toolError({ message: deniedMessage(shown), brief: Briefs.accessDenied });
}

/**
 * docs/paths.md in one place: input checks, workspace containment on real paths, deny globs, sensitive files.
 * `additionalDirs` is read on every call (a live list); `deny` and `sensitive` are compiled once, here.
 */
export class PathPolicy {
  private readonly settings: PathPolicySettings;
  private readonly fs: FileSystem;
  private readonly platform: NodeJS.Platform;
  private readonly homeDir: string;
  private readonly denyTest: GlobTest;
  private readonly sensitiveFiles: SensitiveFiles;
  /** Real workspace roots as last computed, so the synchronous `isDenied` also knows them. */
  private knownRealRoots: readonly string[] = [];
  /** The configured roots (joined) that {@link knownRealRoots} were resolved from. */
  private knownRootsKey: string | undefined;

  constructor(settings: PathPolicySettings, environment: PathPolicyEnvironment) {
    this.settings = settings;
    this.fs = environment.fs;
    this.platform = environment.platform ?? environment.fs.platform;
    this.homeDir = environment.homeDir ?? environment.fs.homeDir;
    this.denyTest = compileGlobs(settings.deny, this.platform === 'win32');
    this.sensitiveFiles = new SensitiveFiles({
      fs: this.fs,
      extraPatterns: settings.sensitive,
      platform: this.platform,
      homeDir: this.homeDir,
      workspaceRoots: () => [...new Set([...this.lexicalRoots(), ...this.knownRealRoots])],
    });
  }

  /**
   * For read/write/edit tools, in the order docs/paths.md gives: empty -> invalid (NUL, lone surrogate, UNC; no file-system
   * access) -> `~`/Windows conversions -> resolve against workDir -> real path -> outside under `outside: 'deny'`
   * (relative or absolute) -> relative-outside (worded with `verb`) -> deny globs -> a trailing separator on anything but
   * an existing directory. Errors carry the exact documented messages and briefs.
   */
  async resolveFile(input: string, verb: PathVerb): Promise<PathResult<PathBrief>> {
    const resolution = await this.resolve(input);
    if (!resolution.ok) return { ok: false, error: inputError(resolution.reason, input) };
    const resolved = resolution.path;
    const shown = resolved.expanded;
    // Under 'deny' a relative path is refused as outside too: asking for the absolute path would only invite a retry
    // that is refused again.
    if (!resolved.inside && this.settings.outside === 'deny') {
      const message = outsideWorkspaceMessage(shown);
      return { ok: false, error: toolError({ message, brief: Briefs.outsideWorkspace }) };
    }
    if (!resolved.inside && !this.pathApi().isAbsolute(resolved.expanded)) {
      const message = notAbsoluteMessage(shown, verb);
      return { ok: false, error: toolError({ message, brief: Briefs.invalidPath }) };
    }
    if (this.deniedAmong([resolved.real, resolved.absolute], resolution.roots)) {
      return { ok: false, error: deniedError(shown) };
    }
    // A directory given with a separator is that directory: each tool answers as it does without the separator
    // (ReadFile lists it). Any other path with one names a directory that is not there, so nothing is read or made.
    // Looked at last, so nothing outside a `deny` workspace is looked at.
    if (endsWithSeparator(input, this.platform) && !(await isExistingDirectory(this.fs, resolved.real))) {
      const message = directoryPathMessage(input);
      return { ok: false, error: toolError({ message, brief: Briefs.invalidPath }) };
    }
    return { ok: true, path: resolved };
  }

  /**
   * For Glob/Grep (docs/glob.md, docs/grep.md): resolves like a read path, but it must lie inside the workspace (else the search
   * message, with the tool's own `outsideBrief`) and not be denied.
   */
  async resolveSearchPath<OutsideBrief extends string>(
    input: string,
    outsideBrief: OutsideBrief,
  ): Promise<PathResult<InputBrief | typeof Briefs.accessDenied | OutsideBrief>> {
    const resolution = await this.resolve(input);
    if (!resolution.ok) return { ok: false, error: inputError(resolution.reason, input) };
    const resolved = resolution.path;
    if (!resolved.inside) {
      return { ok: false, error: toolError({ message: searchOutsideMessage(input), brief: outsideBrief }) };
    }
    if (this.deniedAmong([resolved.real, resolved.absolute], resolution.roots)) {
      return { ok: false, error: deniedError(resolved.expanded) };
    }
    return { ok: true, path: resolved };
  }

  /**
   * Real paths of workDir and the current additionalDirs (relative entries resolved against workDir), deduplicated:
   * resolved once and kept while that list is unchanged (each resolution is a round trip on a remote backend), or
   * resolved again with `fresh`. docs/paths.md#the-workspace: a path is judged inside on its own real path, resolved
   * at the time, and one outside the kept roots is judged again against fresh ones.
   */
  async workspaceRoots(fresh = false): Promise<string[]> {
    return [...(await this.realRoots(fresh)).roots];
  }

  /** {@link workspaceRoots}, and whether they were resolved just now. */
  private async realRoots(fresh: boolean): Promise<{ roots: readonly string[]; resolvedNow: boolean }> {
    const lexical = this.lexicalRoots();
    const key = lexical.join('\0');
    if (!fresh && key === this.knownRootsKey) return { roots: this.knownRealRoots, resolvedNow: false };
    const real = await Promise.all(lexical.map((dir) => realPathAllowMissing(this.fs, dir, this.platform)));
    const roots = [...new Set(real)];
    this.knownRealRoots = roots;
    this.knownRootsKey = key;
    return { roots, resolvedNow: true };
  }

  /** Whether a real path lies inside the workspace (component-wise). */
  async isInsideWorkspace(realPath: string): Promise<boolean> {
    return (await this.rootsHolding(realPath)).inside;
  }

  /**
   * Whether the runtime's deny globs refuse a path. Each glob is tried on the path itself and on the path relative to
   * each workspace directory holding it (as configured, and as real paths when known from an earlier call), so both
   * `**\/.git/**` and `secrets/**` work.
   */
  isDenied(realPath: string): boolean {
    return this.deniedAmong([realPath], [...this.lexicalRoots(), ...this.knownRealRoots]);
  }

  /**
   * Whether a file probably holds secrets: built-in patterns plus the runtime's extra ones (docs/paths.md#sensitive-files). Given a
   * {@link ResolvedPath}, both the name the model used and the real target count, so neither a symlink named
   * `notes.txt` pointing at `.env` nor one named `.env` slips through; a hard link named `notes.txt` is judged by its
   * other names where they can be found. The one test every tool applies before it reads or changes a file.
   * `stats`: what `fs.stat` of the real path gave the caller just now, if it has them (`null`: nothing is there), so
   * the file is not looked at again (Grep judges thousands of files it stats anyway).
   */
  isSensitive(file: string | ResolvedPath, stats?: FileStats | null): Promise<boolean> {
    if (typeof file === 'string') return this.sensitiveFiles.isSensitive([file], file, stats);
    return this.sensitiveFiles.isSensitive([file.absolute, file.real], file.real, stats);
  }

  /**
   * {@link isSensitive}'s answer for a file path when its name, and the stats the caller took of it (`null`: nothing
   * is there; `undefined`: none taken), decide it without looking at the file system; `undefined` when only
   * `isSensitive` can tell (a file with several hard links, a private-key name, no stats on a backend with link
   * counts). Grep judges each batch of thousands of files it lstat'ed at once this way.
   */
  isSensitiveKnown(file: string, stats: FileStats | null | undefined): boolean | undefined {
    return this.sensitiveFiles.knownVerdict([file], stats);
  }

  private pathApi() {
    return pathApiFor(this.platform);
  }

  /** workDir and additionalDirs as configured, made absolute against workDir. */
  private lexicalRoots(): string[] {
    const pathApi = this.pathApi();
    return [this.settings.workDir, ...this.settings.additionalDirs].map((dir) =>
      pathApi.resolve(this.settings.workDir, dir),
    );
  }

  private async resolve(input: string): Promise<Resolution> {
    const problem = checkPathInput(input, this.fs.capabilities.byteNames === true);
    if (problem) return { ok: false, reason: problem };
    const expanded = expandPathInput(input, { homeDir: this.homeDir, platform: this.platform });
    if (isDriveRelative(expanded, this.platform)) return { ok: false, reason: 'invalid' };
    const absolute = this.pathApi().resolve(this.settings.workDir, expanded);
    // The roots are resolved alongside the path only when none are kept yet.
    const [real, kept] = await Promise.all([
      realPathAllowMissing(this.fs, absolute, this.platform),
      this.realRoots(false),
    ]);
    const { inside, roots } = await this.rootsHolding(real, kept);
    return {
      ok: true,
      path: { input, expanded, absolute, real, inside },
      roots: [...roots, ...this.lexicalRoots()],
    };
  }

  /**
   * Whether `real` lies inside the workspace, and the real roots it was judged against. The kept roots judge first: a
   * real path inside one of them is inside a directory that was the workspace's when it was resolved. One outside
   * them is judged against the roots resolved now, so a workspace directory that is a link, since pointed elsewhere,
   * is followed there (and the roots kept from then on are those).
   */
  private async rootsHolding(
    real: string,
    known?: { roots: readonly string[]; resolvedNow: boolean },
  ): Promise<{ inside: boolean; roots: string[] }> {
    const isInside = (roots: readonly string[]) =>
      roots.some((root) => isWithinDirectory(real, root, this.platform));
    const kept = known ?? (await this.realRoots(false));
    if (kept.resolvedNow || isInside(kept.roots))
      return { inside: isInside(kept.roots), roots: [...kept.roots] };
    const { roots } = await this.realRoots(true);
    return { inside: isInside(roots), roots: [...roots] };
  }

  private deniedAmong(paths: readonly string[], roots: readonly string[]): boolean {
    if (this.settings.deny.length === 0) return false;
    const pathApi = this.pathApi();
    const subjects = new Set<string>();
    for (const candidate of paths) {
      subjects.add(candidate);
      for (const root of roots) {
        if (isWithinDirectory(candidate, root, this.platform))
          subjects.add(pathApi.relative(root, candidate));
      }
    }
    const windows = this.platform === 'win32';
    return [...subjects].some((subject) => {
      const slashed = windows ? subject.replace(/\\/g, '/') : subject;
      return slashed !== '' && this.denyTest(slashed);
    });
  }
}
