import { bytesOfName, hasLoneSurrogate, type FileSystem, type OpenFile } from '@kimi-tools/core/fs';
import { pathApiFor, type IgnoreRuleCache } from '@kimi-tools/core/toolkit';
import { GREP_MAX_LINE_CHARS } from '../../limits.js';
import type { GrepParams } from '../grep-params.js';
import { MAX_SEARCH_OUTPUT_BYTES, type SearchRun } from '../search-run.js';
import { fileTypeTest, type FileTypeTest } from './file-types.js';
import type { MatcherOptions } from './file-matcher.js';
import { SearchStopped, type MatcherWorker, type MatcherWorkers } from './matcher-worker.js';
import { OverrideGlobs } from './override-globs.js';
import { translatePattern } from './translate-pattern.js';
import { walkSearchFiles } from './walk-search-files.js';

/** Files searched at once: their reads overlap (a round trip each on a remote backend), the worker matches in turn. */
const FILES_AT_ONCE = 8;

/** Bytes read from a file at a time. */
const READ_BYTES = 1024 * 1024;

/** What to search: Grep's arguments, where, and how long. */
export interface PortableSearchRequest {
  fs: FileSystem;
  params: GrepParams;
  /** The directory searched, or the one holding the searched file (absolute, on `fs`). */
  base: string;
  /** The file searched, by its name in `base`; `undefined` to search `base`. */
  fileName: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Ignore files' rule sets kept across calls. */
  cache: IgnoreRuleCache;
  /** The worker threads the files are matched in, kept across calls. */
  workers: MatcherWorkers;
  /** Output limit in bytes (default {@link MAX_SEARCH_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** Takes the output as it is made (whole files at a time); `stdout` then stays empty. */
  onStdout?: (chunk: Buffer) => void;
}

/** A search that failed before any file was read: ripgrep's exit code 2 and its error text. */
function refused(stderr: string): SearchRun {
  return {
    stdout: Buffer.alloc(0),
    stderr,
    exitCode: 2,
    timedOut: false,
    aborted: false,
    outputCapped: false,
  };
}

/**
 * Grep's search where ripgrep cannot run (a backend without `exec`, a host without ripgrep): the files are walked and
 * read through the file system, matched in a worker thread with the pattern translated to a JavaScript regular
 * expression, and printed as ripgrep would print them (docs/grep.md, "The portable search"). The timeout, the abort
 * signal and the output limit stop it at once; what was found by then is kept.
 */
export async function runPortableSearch(request: PortableSearchRequest): Promise<SearchRun> {
  const { params } = request;
  const translation = translatePattern(params.pattern, {
    caseInsensitive: params['-i'],
    multiline: params.multiline,
  });
  if (!translation.ok) return refused(translation.error);
  let type: FileTypeTest | null = null;
  if (params.type !== null) {
    const known = fileTypeTest(params.type);
    if (!known.ok) return refused(known.error);
    type = known.test;
  }
  const context = params['-C'] ?? 0;
  const { pattern } = translation;
  const options: MatcherOptions = {
    regex: pattern.regex,
    ...(pattern.columnRegex ? { columnRegex: pattern.columnRegex } : {}),
    emptyAnywhere: pattern.emptyAnywhere,
    mode: params.output_mode,
    before: params['-B'] ?? context,
    after: params['-A'] ?? context,
    multiline: params.multiline,
    maxColumns: GREP_MAX_LINE_CHARS,
  };
  const overrides = request.fileName === undefined ? await OverrideGlobs.create(params.glob) : undefined;
  return new PortableSearch(request, options).run(overrides, type);
}

class PortableSearch {
  private readonly worker: MatcherWorker;
  private readonly paths: ReturnType<typeof pathApiFor>;
  private readonly stdout: Buffer[] = [];
  private readonly errors: string[] = [];
  private readonly queue: string[] = [];
  private walking = true;
  private wake: (() => void) | undefined;
  private written = 0;
  private found = false;
  private stopped = false;
  private timedOut = false;
  private aborted = false;
  private outputCapped = false;
  /** What the output's taker threw: the search fails with it. */
  private failure: unknown;

  constructor(
    private readonly request: PortableSearchRequest,
    private readonly options: MatcherOptions,
  ) {
    this.worker = request.workers.take();
    this.paths = pathApiFor(request.fs.platform);
  }

  async run(overrides: OverrideGlobs | undefined, type: FileTypeTest | null): Promise<SearchRun> {
    const { request } = this;
    const timer = setTimeout(() => this.stop('timeout'), request.timeoutMs);
    const onAbort = () => this.stop('abort');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (request.signal?.aborted) this.stop('abort');
      const searchers = Array.from({ length: FILES_AT_ONCE }, () => this.searchQueued());
      if (request.fileName !== undefined) this.enqueue(request.fileName);
      else await this.walk(overrides as OverrideGlobs, type);
      this.walking = false;
      this.wake?.();
      await Promise.all(searchers);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (this.stopped) this.worker.stop();
      else request.workers.giveBack(this.worker);
    }
    if (this.failure !== undefined) throw this.failure;
    const errored = this.errors.length > 0;
    return {
      stdout: Buffer.concat(this.stdout),
      stderr: this.errors.join('\n'),
      exitCode: this.stopped && !this.outputCapped ? null : errored ? 2 : this.found ? 0 : 1,
      timedOut: this.timedOut,
      aborted: this.aborted,
      outputCapped: this.outputCapped,
    };
  }

  private async walk(overrides: OverrideGlobs, type: FileTypeTest | null): Promise<void> {
    const { request } = this;
    try {
      await walkSearchFiles({
        fs: request.fs,
        base: request.base,
        overrides,
        type,
        includeIgnored: request.params.include_ignored,
        cache: request.cache,
        signal: request.signal,
        stopped: () => this.stopped,
        onFile: (relative) => this.enqueue(relative),
        onError: (relative, error) => this.errors.push(`${relative}: ${errorText(error)}`),
      });
    } catch (error) {
      if (!this.stopped) this.errors.push(errorText(error));
    }
  }

  private enqueue(relative: string): void {
    this.queue.push(relative);
    this.wake?.();
  }

  private stop(reason: 'timeout' | 'abort' | 'output'): void {
    if (this.stopped) return;
    this.stopped = true;
    if (reason === 'timeout') this.timedOut = true;
    else if (reason === 'abort') this.aborted = this.failure === undefined;
    else this.outputCapped = true;
    this.worker.stop();
    this.wake?.();
  }

  /** One of the searchers: takes files from the queue until the walk is over and the queue empty. */
  private async searchQueued(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const next = this.queue.shift();
      if (next !== undefined) {
        await this.searchFile(next);
        continue;
      }
      if (!this.walking) return;
      await new Promise<void>((resolve) => {
        const previous = this.wake;
        this.wake = () => {
          this.wake = undefined;
          previous?.();
          resolve();
        };
      });
    }
  }

  /** Reads one file into the worker and prints what it found, all at once so no other file's lines come between. */
  private async searchFile(relative: string): Promise<void> {
    const { request } = this;
    let handle: OpenFile | undefined;
    let id: number | undefined;
    const pieces: string[] = [];
    try {
      handle = await request.fs.open(this.paths.join(request.base, relative), 'read');
      if (!(await handle.stat()).isFile()) return;
      id = this.worker.open(this.options, relative, request.fileName !== undefined);
      for (let position = 0; ;) {
        const bytes = new Uint8Array(READ_BYTES);
        const { bytesRead } = await handle.read(bytes, 0, READ_BYTES, position);
        if (bytesRead === 0 || this.stopped) break;
        position += bytesRead;
        const answer = await this.worker.data(id, bytes.subarray(0, bytesRead));
        pieces.push(answer.text);
        if (answer.done) break;
      }
      const last = this.worker.end(id);
      id = undefined;
      pieces.push((await last).text);
    } catch (error) {
      if (error instanceof SearchStopped || this.stopped) return;
      this.errors.push(`${relative}: ${errorText(error)}`);
      // The worker forgets the file, whose read failed.
      if (id !== undefined) await this.worker.end(id).catch(() => undefined);
      return;
    } finally {
      await handle?.close().catch(() => undefined);
    }
    this.print(pieces.join(''));
  }

  private print(text: string): void {
    if (text === '' || this.stopped) return;
    this.found = true;
    // A name that is not UTF-8 is printed as its own bytes, as ripgrep prints it (docs/paths.md).
    const chunk = hasLoneSurrogate(text) ? (bytesOfName(text) ?? Buffer.from(text)) : Buffer.from(text);
    if (!this.request.onStdout) this.stdout.push(chunk);
    else {
      try {
        this.request.onStdout(chunk);
      } catch (error) {
        this.failure = error;
        this.stop('abort');
        return;
      }
    }
    this.written += chunk.length;
    if (this.written > (this.request.maxOutputBytes ?? MAX_SEARCH_OUTPUT_BYTES)) this.stop('output');
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
