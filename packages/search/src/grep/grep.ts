import {
  CallableTool,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import { hasLoneSurrogate, nameFromBytes, type ExecProcess } from '@kimi-tools/core/fs';
import {
  hiddenFromListing,
  escapeForDisplay,
  hasErrno,
  IgnoreRuleCache,
  notAFileError,
  pathApiFor,
  positiveNumberOption,
  readShownGlob,
  sensitiveFilesWarning,
  stringOption,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from '../common/tool-zod.js';
import {
  grepFailedMessage,
  GrepBriefs,
  ripgrepError,
  ripgrepExitMessage,
  SEARCH_ABORTED_MESSAGE,
  timedOutError,
  timedOutNote,
  type GrepBrief,
} from '../errors.js';
import { sortByPathComponentWise } from '../common/compare-paths.js';
import { resolveSearchTarget, type SearchTarget } from '../common/search-target.js';
import { FileListCollector } from './file-list-collector.js';
import { GREP_DESCRIPTION, grepDescription } from './grep-description.js';
import { wholeCountOption } from '../common/whole-count-option.js';
import { GREP_MAX_OUTPUT_CHARS } from '../limits.js';
import { guardIgnoreFiles } from './ignore-file-guard.js';
import { GrepParams } from './grep-params.js';
import { shownErrorOutput } from './shown-error-output.js';
import { parseCounts } from './parse-output.js';
import { ContentCollector } from './content-collector.js';
import { windowInFile } from './long-line-window.js';
import { LoneCrCounter } from './lone-cr-counter.js';
import { ResultPathFilter } from './result-path-filter.js';
import type { MatcherWorkers } from './portable/matcher-worker.js';
import type { PortableSearchRequest } from './portable/portable-search.js';
import { buildRipgrepArgs, ripgrepTakesArguments, ripgrepTakesGlob } from './ripgrep-args.js';
import { ripgrepCommand } from './ripgrep-binary.js';
import { runRipgrep } from './run-ripgrep.js';
import { MAX_SEARCH_OUTPUT_BYTES, type SearchEngine, type SearchRun } from './search-run.js';
import { capOutput, listedLines, paginate, type ResultLines } from './shape-output.js';
import { shownCountPath } from './shown-result-path.js';

const OUTPUT_CAPPED = `Search stopped after ${MAX_SEARCH_OUTPUT_BYTES / 1024 / 1024} MB of ripgrep output; results are incomplete. Use a more specific pattern or path.`;

/** The portable search with the Grep's ignore-rule cache and worker threads. */
type PortableSearch = (request: Omit<PortableSearchRequest, 'cache' | 'workers'>) => Promise<SearchRun>;

/** What takes the search's output while it runs: files and content modes are parsed and filtered as it streams. */
type Collector = FileListCollector | ContentCollector | undefined;

/** The output lines of one mode after filtering, with what the message needs to say about them. */
interface ModeLines {
  lines: ResultLines;
  /**
   * Whether anything is left after filtering: decides partial results vs. errors. Counted after filtering so that
   * what a sensitive file holds never changes the answer.
   */
  hadResults: boolean;
  countSummary: string | null;
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  );
}

/** Options of {@link Grep}. */
export interface GrepOptions {
  /** Stop a search after this many milliseconds, answering with what was found so far (default 20 000). */
  timeoutMs?: number;
  /**
   * The ripgrep binary to run instead of `@vscode/ripgrep`'s or `rg` on the `PATH` where the files are (on the remote
   * host of an SSH backend: a path there); a path that does not exist means "no ripgrep": the portable search runs.
   */
  rgPath?: string;
  /**
   * Cut the output at this many characters, at a line boundary (default {@link GREP_MAX_OUTPUT_CHARS}); the
   * description says so.
   */
  maxOutputChars?: number;
}

/**
 * Searches file contents inside the workspace (docs/grep.md): with ripgrep where the runtime's file system runs it,
 * else with the portable JavaScript search; `extras.search` says which ran.
 */
export class Grep extends CallableTool<typeof GrepParams, GrepBrief> {
  readonly name = 'Grep';
  readonly description: string;
  readonly params = GrepParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = GrepBriefs.failed;
  override readonly access = 'read';
  protected override readonly pathParameters = ['path'];
  private ripgrepPath: string | undefined;
  /** Ignore files met by earlier portable searches, compiled. */
  private readonly ignoreRules = new IgnoreRuleCache();
  /** The portable search's worker threads, kept between calls (made by its first search). */
  private workers: MatcherWorkers | undefined;
  private readonly timeoutMs: number;
  private readonly rgPath: string | undefined;
  private readonly maxOutputChars: number;

  /** Creates the tool for one runtime; throws on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: GrepOptions = {},
  ) {
    super(runtime);
    this.timeoutMs = positiveNumberOption('Grep', 'timeoutMs', options.timeoutMs, 20_000);
    this.rgPath = stringOption('Grep', 'rgPath', options.rgPath);
    this.maxOutputChars = wholeCountOption(
      'Grep',
      'maxOutputChars',
      options.maxOutputChars,
      GREP_MAX_OUTPUT_CHARS,
    );
    this.description =
      this.maxOutputChars === GREP_MAX_OUTPUT_CHARS ? GREP_DESCRIPTION : grepDescription(this.maxOutputChars);
  }

  /** Applies no change, so there are no observer sections to collect. */
  protected override collectsChangeSections(): boolean {
    return false;
  }

  protected override failureMessage(_params: GrepParams, error: string): string {
    return grepFailedMessage(error);
  }

  protected async execute(given: GrepParams, options: CallOptions): Promise<ToolReturnValue<GrepBrief>> {
    // A path Glob or Grep shows, given back as the glob, matches that file (docs/grep.md).
    const params = given.glob === null ? given : { ...given, glob: readShownGlob(given.glob) };
    const input = params.path === '' ? '.' : params.path;
    const { fs } = this.runtime;
    // The binary is looked up while the path is checked: both are file-system round trips.
    const [resolved, binary] = await Promise.all([
      resolveSearchTarget(this.runtime, input, { outside: GrepBriefs.outside, missing: GrepBriefs.missing }),
      this.locateRipgrep(),
    ]);
    if (!resolved.ok) return resolved.error;
    const { target } = resolved;

    // ripgrep would wait on a FIFO for a writer until the timeout: only directories and regular files are searched.
    if (!target.isDirectory && !target.isFile) return notAFileError(input);

    // A file is searched from its own directory, so its name prefixes every line (docs/grep.md step 2).
    const paths = pathApiFor(fs.platform);
    const base = target.isDirectory ? target.real : paths.dirname(target.absolute);
    const fileName = target.isDirectory ? undefined : paths.basename(target.absolute);
    if (options.signal?.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
    // A sensitive file searched by itself is not even read: the answer is the same whatever it holds.
    if (!target.isDirectory && (await this.runtime.paths.isSensitive(target.real))) {
      return toolOk({
        output: '',
        message: `No matches found. ${sensitiveFilesWarning([escapeForDisplay(fileName as string)])}`,
        extras: { total: 0, search: binary === null ? 'portable' : 'ripgrep' },
      });
    }
    const filter = new ResultPathFilter(this.runtime, base, await hiddenFromListing(this.runtime, this));
    // One timeout for the call: a ripgrep run given up for an ignore file leaves the portable search the rest.
    const deadline = Date.now() + this.timeoutMs;
    // A program's directory and arguments go as UTF-8 only (Node's, and an SSH command line): a name that is not
    // UTF-8, as the path or in the glob (`inv\udcff.txt`, as Glob shows it), is searched without it, and so is a
    // pattern holding a lone surrogate, which would reach ripgrep as U+FFFD and match that character, a glob ripgrep
    // would read otherwise, and arguments longer than a command line takes.
    if (
      binary !== null &&
      ![base, fileName ?? '', params.glob ?? '', params.pattern].some(hasLoneSurrogate) &&
      (params.glob === null || ripgrepTakesGlob(params.glob)) &&
      ripgrepTakesArguments(params)
    ) {
      const collector = this.collector(params, filter, options, 'ripgrep');
      const run = await this.runRipgrep(binary, params, target, base, fileName, collector, options);
      if (run !== undefined) {
        if (collector instanceof ContentCollector && !run.aborted) {
          await collector.settle();
          await this.searchLoneCrFilesAgain(collector, params, base, deadline, options.signal);
        }
        return this.finish(params, run, filter, collector, 'ripgrep');
      }
    }
    // No ripgrep where the files are: the portable search, with the same output.
    const search = await this.portableSearch();
    const collector = this.collector(params, filter, options, 'portable');
    const run = await search({
      fs,
      params,
      base,
      fileName,
      timeoutMs: Math.max(1, deadline - Date.now()),
      signal: options.signal,
      onStdout: collector && ((chunk) => collector.write(chunk)),
    });
    return this.finish(params, run, filter, collector, 'portable');
  }

  /**
   * The portable search, loaded here, on its first use: its regular-expression translator, matcher and worker threads
   * are a third of the package, which a process that finds ripgrep would parse for nothing at every start.
   */
  private async portableSearch(): Promise<PortableSearch> {
    const [{ runPortableSearch }, { MatcherWorkers }] = await Promise.all([
      import('./portable/portable-search.js'),
      import('./portable/matcher-worker.js'),
    ]);
    const workers = (this.workers ??= new MatcherWorkers());
    return (request) => runPortableSearch({ ...request, cache: this.ignoreRules, workers });
  }

  /**
   * Files and content modes are parsed and filtered while the search runs; count mode's output is tiny. ripgrep ends
   * lines at `\n` only: in content mode its line numbers get the lone `\r` before them added, as ReadFile counts lines.
   */
  private collector(
    params: GrepParams,
    filter: ResultPathFilter,
    options: CallOptions,
    engine: SearchEngine,
  ): Collector {
    if (params.output_mode === 'files_with_matches') return new FileListCollector(filter);
    if (params.output_mode === 'count_matches') return undefined;
    const loneCrs = engine === 'ripgrep' ? new LoneCrCounter(this.runtime.fs, options.signal) : undefined;
    return new ContentCollector(filter, {
      multiline: params.multiline,
      readWindow: (file, lineOffset, matchColumn) =>
        windowInFile(this.runtime.fs, file, lineOffset, matchColumn, options.signal),
      ...(loneCrs && { loneCrsBefore: (file, offset) => loneCrs.before(file, offset) }),
    });
  }

  /**
   * A file ripgrep printed a line of holding a lone `\r` (which ends a line for ReadFile, not for ripgrep) is searched
   * again by the portable search, which ends lines where ReadFile does, and its lines replaced: numbers, text and
   * context lines then all follow ReadFile's lines (docs/grep.md). Such files are rare. One the portable search cannot
   * answer for in the time left keeps ripgrep's lines.
   */
  private async searchLoneCrFilesAgain(
    collector: ContentCollector,
    params: GrepParams,
    base: string,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const files = collector.filesWithLoneCr;
    if (files.length === 0) return;
    const search = await this.portableSearch();
    for (const file of files) {
      const run = await search({
        fs: this.runtime.fs,
        // The file is named: filters chose it already.
        params: { ...params, glob: null, type: null },
        base,
        fileName: file,
        timeoutMs: Math.max(1, deadline - Date.now()),
        signal,
      });
      if (run.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
      if (run.exitCode === 0 && !run.timedOut && !run.outputCapped) {
        // Decoded as ripgrep's output is: a name that is not UTF-8 keeps its byte escapes, and so its block.
        collector.replaceLines(file, nameFromBytes(run.stdout));
      }
    }
  }

  /**
   * Runs ripgrep where the files are; `undefined` when it is not there, or was stopped for an ignore file it cannot
   * skip (the portable search runs instead, and skips that file as Glob does).
   */
  private async runRipgrep(
    binary: string,
    params: GrepParams,
    target: SearchTarget,
    base: string,
    fileName: string | undefined,
    collector: Collector,
    options: CallOptions,
  ): Promise<SearchRun | undefined> {
    let program: ExecProcess | undefined;
    let unreadableIgnoreFile = false;
    // ripgrep reads ignore files only in a directory search that respects them.
    const stopGuarding =
      target.isDirectory && !params.include_ignored
        ? guardIgnoreFiles(
            this.runtime.fs,
            target.real,
            () => program?.pid,
            () => {
              unreadableIgnoreFile = true;
              program?.kill();
            },
          )
        : undefined;
    try {
      const run = await runRipgrep({
        fs: this.runtime.fs,
        binary,
        args: buildRipgrepArgs(params, fileName),
        cwd: base,
        timeoutMs: this.timeoutMs,
        signal: options.signal,
        onStdout: collector && ((chunk) => collector.write(chunk)),
        onStart: (started) => {
          program = started;
        },
      });
      return unreadableIgnoreFile && !run.aborted && !run.timedOut ? undefined : run;
    } catch (error) {
      // No such program (or one that cannot be run) where the files are: look for one again next time.
      if (!hasErrno(error, 'ENOENT') && !hasErrno(error, 'EACCES')) throw error;
      this.ripgrepPath = undefined;
      return undefined;
    } finally {
      stopGuarding?.();
    }
  }

  private async finish(
    params: GrepParams,
    run: SearchRun,
    filter: ResultPathFilter,
    collector: Collector,
    search: SearchEngine,
  ): Promise<ToolReturnValue<GrepBrief>> {
    if (run.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
    // The files' verdicts were started as the search listed them; the last ones may still be out.
    await collector?.settle();
    return await this.report(params, run, filter, collector, search);
  }

  private async locateRipgrep(): Promise<string | null> {
    if (this.ripgrepPath !== undefined) return this.ripgrepPath;
    const found = await ripgrepCommand(this.runtime.fs, this.rgPath);
    // A binary found is kept; a name the backend looks up on its `PATH` costs nothing to ask for again.
    if (found !== null && pathApiFor(this.runtime.fs.platform).isAbsolute(found)) this.ripgrepPath = found;
    return found;
  }

  private async report(
    params: GrepParams,
    run: SearchRun,
    filter: ResultPathFilter,
    collector: Collector,
    search: SearchEngine,
  ): Promise<ToolReturnValue<GrepBrief>> {
    const exitedCleanly = run.exitCode === 0 || run.exitCode === 1;
    if (!run.timedOut && !run.outputCapped && !exitedCleanly && run.exitCode !== 2) {
      const stderr = run.stderr.trim();
      throw new Error(ripgrepExitMessage(run.exitCode, stderr));
    }
    const mode = await this.modeLines(params, run, filter, collector);
    if (!mode.hadResults) {
      if (run.timedOut) return timedOutError(this.timeoutMs);
      if (run.exitCode === 2) return ripgrepError(shownErrorOutput(run.stderr, params));
    }

    const notes: string[] = [];
    if (mode.countSummary !== null) notes.push(mode.countSummary);
    const page = paginate(mode.lines, params.offset, params.head_limit);
    if (page.note !== null) notes.push(page.note);
    if (run.timedOut) notes.push(timedOutNote(this.timeoutMs));
    else if (run.outputCapped) notes.push(OUTPUT_CAPPED);
    else if (run.exitCode === 2) notes.push(`Some paths could not be searched: ${firstLine(run.stderr)}`);

    const output = await capOutput(page.lines, this.maxOutputChars);
    // A search the output limit stopped may have cut its only match short: that is not "no matches".
    if (page.size === 0 && !run.outputCapped) notes.unshift('No matches found.');
    if (output.truncated) notes.push('Output is truncated to fit in the message.');
    return toolOk({
      output: output.text,
      message: notes.join(' '),
      extras: { total: mode.lines.total, search },
    });
  }

  /** Parses, filters and orders ripgrep's output for the chosen mode (docs/grep.md steps 1-4). */
  private async modeLines(
    params: GrepParams,
    run: SearchRun,
    filter: ResultPathFilter,
    collector: Collector,
  ): Promise<ModeLines> {
    switch (params.output_mode) {
      case 'files_with_matches': {
        // Parsed, filtered and timed while ripgrep ran; only the order is left.
        const files = collector as FileListCollector;
        return {
          lines: listedLines(files.newestFirst().map((path) => escapeForDisplay(path))),
          hadResults: files.kept > 0,
          countSummary: null,
        };
      }
      case 'count_matches': {
        const found = parseCounts(nameFromBytes(run.stdout));
        const kept = await filter.keepsEach(found.map((entry) => entry.path));
        const counts = sortByPathComponentWise(
          found.filter((_entry, index) => kept[index]),
          (entry) => entry.path,
        );
        const total = counts.reduce((sum, entry) => sum + entry.count, 0);
        return {
          lines: listedLines(counts.map((entry) => `${shownCountPath(entry.path)}:${entry.count}`)),
          hadResults: counts.length > 0,
          countSummary:
            counts.length > 0 ? `Found ${total} total occurrences across ${counts.length} files.` : null,
        };
      }
      case 'content': {
        // Parsed and filtered while ripgrep ran; lines are made only for the page, up to the output cap.
        const content = collector as ContentCollector;
        const context = [params['-A'], params['-B'], params['-C']].some(
          (value) => value !== null && value > 0,
        );
        return {
          lines: content.lines(params['-n'], context),
          hadResults: content.kept > 0,
          countSummary: null,
        };
      }
    }
  }
}
