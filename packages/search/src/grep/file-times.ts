import { statSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * Modification times of the files ripgrep lists in files mode (`path\0path\0...`), looked up as its output streams
 * in, so the lookups overlap with the search instead of following it. Synchronous on purpose: ripgrep has just read
 * each file, its metadata is cached, and a plain loop is several times faster than thousands of queued async calls.
 */
export class StreamingFileTimes {
  private readonly decoder = new StringDecoder('utf8');
  private readonly times = new Map<string, number>();
  private pending = '';

  constructor(private readonly base: string) {}

  /** Takes the next chunk of ripgrep's output. */
  write(chunk: Buffer): void {
    const text = this.pending + this.decoder.write(chunk);
    const parts = text.split('\0');
    this.pending = parts.pop() ?? '';
    for (const relative of parts) {
      if (relative.length > 0) this.times.set(relative, this.lookUp(relative));
    }
  }

  /** The file's modification time in ms; 0 for a file deleted since ripgrep saw it (it sorts last). */
  timeOf(relative: string): number {
    let time = this.times.get(relative);
    if (time === undefined) {
      time = this.lookUp(relative);
      this.times.set(relative, time);
    }
    return time;
  }

  private lookUp(relative: string): number {
    return statSync(path.join(this.base, relative), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  }
}
