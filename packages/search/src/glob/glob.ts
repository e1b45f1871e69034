import {
  CallableTool,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import { escapeForDisplay, hiddenFromListing, pathApiFor, readShownGlob } from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from '../common/tool-zod.js';
import { wholeCountOption } from '../common/whole-count-option.js';
import {
  braceRangeTooLargeError,
  emptyPatternError,
  emptySegmentError,
  escapingPatternError,
  globFailedMessage,
  globMatchesSentence,
  GlobBriefs,
  notADirectoryError,
  tooComplexPatternError,
  type GlobBrief,
} from '../errors.js';
import { GLOB_MAX_MATCHES } from '../limits.js';
import { sortPathsComponentWise } from '../common/compare-paths.js';
import { resolveSearchTarget } from '../common/search-target.js';
import { GLOB_DESCRIPTION, globDescription } from './glob-description.js';
import { GlobParams } from './glob-params.js';
import {
  checkGlobPattern,
  compileGlob,
  loadPatternEngine,
  MAX_BACKTRACKING_WILDCARDS,
  normalizeGlobPattern,
} from './glob-pattern.js';
import { IgnoreRuleCache, loadAncestorIgnoreLevels, workspaceRootOf } from '@kimi-tools/core/toolkit';
import { walkTree } from './walk-tree.js';

/** Options of {@link Glob}. */
export interface GlobOptions {
  /** Return at most this many paths (default {@link GLOB_MAX_MATCHES}); the message and description say so. */
  maxMatches?: number;
}

/** Finds files and directories by glob pattern inside the workspace (docs/glob.md). */
export class Glob extends CallableTool<typeof GlobParams, GlobBrief> {
  readonly name = 'Glob';
  readonly description: string;
  readonly params = GlobParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = GlobBriefs.failed;
  override readonly access = 'read';
  protected override readonly pathParameters = ['directory'];
  private readonly maxMatches: number;
  /** Ignore files met by earlier calls, compiled: an agent globs the same tree again and again. */
  private readonly ignoreRules = new IgnoreRuleCache();

  /** Creates the tool for one runtime; throws on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: GlobOptions = {},
  ) {
    super(runtime);
    this.maxMatches = wholeCountOption('Glob', 'maxMatches', options.maxMatches, GLOB_MAX_MATCHES);
    this.description =
      this.maxMatches === GLOB_MAX_MATCHES ? GLOB_DESCRIPTION : globDescription(this.maxMatches);
  }

  /** Applies no change, so there are no observer sections to collect. */
  protected override collectsChangeSections(): boolean {
    return false;
  }

  protected override failureMessage(params: GlobParams, error: string): string {
    return globFailedMessage(params.pattern, error);
  }

  protected async execute(params: GlobParams, options: CallOptions): Promise<ToolReturnValue<GlobBrief>> {
    // A path Glob shows, given back, matches that file; the messages quote the pattern as given.
    const given = params.pattern;
    const pattern = readShownGlob(given);
    const micromatch = await loadPatternEngine(pattern);
    const problem = checkGlobPattern(pattern, micromatch, this.runtime.fs.platform);
    if (problem === 'empty') return emptyPatternError();
    if (problem === 'escapes') return escapingPatternError(given);
    if (problem === 'rangeTooLarge') return braceRangeTooLargeError(given);
    if (problem === 'emptySegment') return emptySegmentError(given);
    if (problem === 'tooComplex') return tooComplexPatternError(given, MAX_BACKTRACKING_WILDCARDS);

    const directory = params.directory === null || params.directory === '' ? '.' : params.directory;
    const resolved = await resolveSearchTarget(this.runtime, directory, {
      outside: GlobBriefs.outside,
      missing: GlobBriefs.missing,
    });
    if (!resolved.ok) return resolved.error;
    if (!resolved.target.isDirectory) return notADirectoryError(directory);
    const root = resolved.target.real;

    const { signal } = options;
    const cache = this.ignoreRules;
    const hidden = await hiddenFromListing(this.runtime, this);
    const walked = await walkTree({
      fs: this.runtime.fs,
      root,
      glob: compileGlob(normalizeGlobPattern(pattern), micromatch),
      includeDirs: params.include_dirs,
      includeIgnored: params.include_ignored,
      ancestorLevels: params.include_ignored
        ? []
        : await loadAncestorIgnoreLevels(this.runtime.fs, root, await workspaceRootOf(this.runtime, root), {
            signal,
            cache,
          }),
      ruleCache: cache,
      isDenied: hidden,
      signal,
    });

    const total = walked.matches.length;
    const shown = sortPathsComponentWise(walked.matches).slice(0, this.maxMatches);
    // One entry per line: a newline or a terminal escape in a name is shown escaped. Separated as the backend's
    // paths are (`\\` only on the local disk of Windows).
    const separator = pathApiFor(this.runtime.fs.platform).sep;
    const output = shown
      .map((p) => escapeForDisplay(separator === '/' ? p : p.split('/').join(separator)))
      .join('\n');
    const parts = [globMatchesSentence(total, given)];
    if (total > this.maxMatches) {
      parts.push(
        `Only the first ${this.maxMatches} matches are returned. You may want to use a more specific pattern.`,
      );
    }
    if (walked.hiddenMatches > 0) {
      parts.push(
        `${walked.hiddenMatches} more matches are hidden by ignore rules; set include_ignored to true to include them.`,
      );
    }
    return toolOk({ output, message: parts.join(' '), extras: { total, hidden: walked.hiddenMatches } });
  }
}
