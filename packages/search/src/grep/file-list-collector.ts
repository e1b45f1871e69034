import { ByteNameDecoder } from '@kimi-tools/core/fs';
import { componentWiseKey } from '../common/compare-paths.js';
import type { ResultPathFilter } from './result-path-filter.js';

/**
 * Files mode (`path\0path\0...`) handled while ripgrep's output streams in: the files listed in each chunk are judged
 * by the filter and their modification times looked up together (one `lstat` a file serves both), so that work
 * overlaps the search instead of following it. Only complete records count: output cut short by a timeout may end
 * mid-name.
 */
export class FileListCollector {
  /** Names that are not UTF-8 come as their byte escapes (docs/paths.md#names-that-are-not-utf-8). */
  private readonly decoder = new ByteNameDecoder();
  /** The start of a name whose end has not arrived yet. */
  private pending = '';
  /** The files listed by each chunk, in the order ripgrep printed them, with their times once judged kept. */
  private readonly listed: Array<{ paths: string[]; times: Promise<Array<number | undefined>> }> = [];
  private readonly paths: string[] = [];
  /** Modification time in ms of `paths[i]`; 0 for a file deleted since ripgrep saw it (it sorts last). */
  private readonly times: number[] = [];

  constructor(private readonly filter: ResultPathFilter) {}

  /** How many files were kept (once {@link settle}d; filtered out ones not counted). */
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
    const paths: string[] = [];
    const first = this.pending + text.slice(0, nul);
    if (first.length > 0) paths.push(first);
    let start = nul + 1;
    for (;;) {
      nul = text.indexOf('\0', start);
      if (nul < 0) break;
      if (nul > start) paths.push(text.slice(start, nul));
      start = nul + 1;
    }
    this.pending = text.slice(start);
    if (paths.length > 0) this.listed.push({ paths, times: this.filter.keptTimes(paths) });
  }

  /** Waits for the filter's verdicts and keeps the files it let through; call it once the output has all come in. */
  async settle(): Promise<void> {
    const times = await Promise.all(this.listed.map((batch) => batch.times));
    this.listed.forEach((batch, index) => {
      batch.paths.forEach((path, at) => {
        const time = times[index]?.[at];
        if (time === undefined) return;
        this.paths.push(path);
        this.times.push(time);
      });
    });
    this.listed.length = 0;
  }

  /** The kept files, newest first; files with the same time in component-wise path order (docs/grep.md step 1). */
  newestFirst(): string[] {
    const { paths, times } = this;
    const order = Array.from(paths.keys());
    // Files unpacked together share their time: ties are common, and compared by keys made once.
    const keys = paths.map(componentWiseKey);
    order.sort(
      (a, b) =>
        (times[b] as number) - (times[a] as number) || ((keys[a] as string) < (keys[b] as string) ? -1 : 1),
    );
    return order.map((index) => paths[index] as string);
  }
}
