import { statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { comparePathsComponentWise } from '../common/compare-paths.js';
import type { ResultPathFilter } from './result-path-filter.js';

/** One options object for every lookup: a missing file gives `undefined` instead of throwing. */
const STAT_OPTIONS = { throwIfNoEntry: false } as const;

/**
 * Files mode (`path\0path\0...`) handled while ripgrep's output streams in: each listed file is filtered and its
 * modification time looked up as soon as its name arrives, so that work overlaps the search instead of following
 * it. Only complete records count: output cut short by a timeout may end mid-name.
 *
 * `statSync` on purpose: ripgrep has just read each file, its metadata is cached, and a plain loop costs less CPU
 * than thousands of queued asynchronous calls (measured with the search benchmark).
 */
export class FileListCollector {
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a name whose end has not arrived yet. */
  private pending = '';
  private readonly paths: string[] = [];
  /** Modification time in ms of `paths[i]`; 0 for a file deleted since ripgrep saw it (it sorts last). */
  private readonly times: number[] = [];

  constructor(private readonly filter: ResultPathFilter) {}

  /** How many files were kept so far (filtered out ones not counted). */
  get kept(): number {
    return this.paths.length;
  }

  /** Takes the next chunk of ripgrep's output. */
  write(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    let nul = text.indexOf('\0');
    if (nul < 0) {
      this.pending += text;
      return;
    }
    // Names are sliced out of the chunk one by one; only a name split across chunks is ever concatenated.
    this.add(this.pending + text.slice(0, nul));
    let start = nul + 1;
    for (;;) {
      nul = text.indexOf('\0', start);
      if (nul < 0) break;
      this.add(text.slice(start, nul));
      start = nul + 1;
    }
    this.pending = text.slice(start);
  }

  /** The kept files, newest first; files with the same time in component-wise path order (docs/grep.md step 1). */
  newestFirst(): string[] {
    const { paths, times } = this;
    const order = Array.from(paths.keys());
    // Times rarely tie, so the path comparison runs only for the few that do.
    order.sort(
      (a, b) =>
        (times[b] as number) - (times[a] as number) ||
        comparePathsComponentWise(paths[a] as string, paths[b] as string),
    );
    return order.map((index) => paths[index] as string);
  }

  private add(relative: string): void {
    if (relative.length === 0) return;
    if (!this.filter.keeps(relative)) return;
    this.paths.push(relative);
    this.times.push(statSync(this.filter.absolute(relative), STAT_OPTIONS)?.mtimeMs ?? 0);
  }
}
