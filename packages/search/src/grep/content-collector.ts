import { StringDecoder } from 'node:string_decoder';
import { escapeForDisplay } from '@kimi-tools/core/toolkit';
import { comparePathsComponentWise } from '../common/compare-paths.js';
import { GREP_MAX_LINE_CHARS } from '../limits.js';
import type { ResultPathFilter } from './result-path-filter.js';
import type { ResultLines } from './shape-output.js';

/** One line ripgrep printed in content mode. */
interface ContentLine {
  isMatch: boolean;
  lineNumber: number;
  /** The line without its line ending, cut past what the output could ever show of it. */
  text: string;
}

/** A file's lines in content mode; `null` marks a `--` gap between non-adjacent groups of the same file. */
interface FileBlock {
  path: string;
  lines: Array<ContentLine | null>;
}

/**
 * No shown line is longer than {@link GREP_MAX_LINE_CHARS}: a longer text is kept only that far (and a character
 * more, so it still reads as too long and is cut and marked exactly as the whole line would be).
 */
const KEPT_TEXT_CHARS = GREP_MAX_LINE_CHARS + 1;

/**
 * An unfinished record longer than this keeps only its head (name, number, the text that can be shown) while the rest
 * of its line streams past unread: a matched line of a minified bundle may run to megabytes.
 */
const LONG_RECORD_CHARS = 64 * 1024;

/** Room for the line number and its marker in a record's kept head. */
const NUMBER_CHARS = 40;

/**
 * Content mode (`--null` after each file name, line numbers always on) parsed while ripgrep's output streams in:
 * `path\0LINE:text\n` for a match, `path\0LINE-text\n` for a context line, `--\n` for a gap. Lines of one file are
 * gathered into one block even when ripgrep interleaved files; gaps between files are dropped (the rendering puts
 * its own). Each file is judged once by the filter, as soon as it first appears and while the search goes on; the
 * files it refuses are dropped by {@link settle}. Nothing is rendered here: the page and the output cap decide which
 * lines ever become strings. Only complete records count: output cut short by a timeout or the output limit may end
 * mid-record.
 */
export class ContentCollector {
  private readonly decoder = new StringDecoder('utf8');
  /** Output not parsed yet: the start of a record whose end has not arrived. */
  private pending = '';
  /** Where in `pending` the search for the record's end resumes (a long line is scanned once, not per chunk). */
  private scanned = 0;
  private readonly blocks = new Map<string, FileBlock>();
  /** The filter's verdict on each file, in the order the files first appeared. */
  private readonly verdicts: Array<{ path: string; kept: Promise<boolean> }> = [];
  private current: FileBlock | undefined;
  private gapPending = false;
  /** Whether the rest of the line of the (long) record in `pending` is being skipped until its end arrives. */
  private skipping = false;

  constructor(private readonly filter: ResultPathFilter) {}

  /** How many files have lines kept (once {@link settle}d). */
  get kept(): number {
    return this.blocks.size;
  }

  /** Waits for the filter's verdicts and drops the files it refused; call it once the output has all come in. */
  async settle(): Promise<void> {
    const kept = await Promise.all(this.verdicts.map((verdict) => verdict.kept));
    this.verdicts.forEach((verdict, index) => {
      if (!kept[index]) this.blocks.delete(verdict.path);
    });
    this.verdicts.length = 0;
  }

  /** Takes the next chunk of ripgrep's output. */
  write(chunk: Buffer): void {
    let incoming = this.decoder.write(chunk);
    if (this.skipping) {
      const newline = incoming.indexOf('\n');
      if (newline < 0) return;
      this.skipping = false;
      this.scanned = this.pending.length;
      incoming = incoming.slice(newline);
    }
    const text = this.pending === '' ? incoming : this.pending + incoming;
    const end = this.parse(text);
    this.pending = end < text.length ? text.slice(end) : '';
    if (this.scanned > LONG_RECORD_CHARS) {
      // Its name ends at the first NUL (the record was cut only after one was found).
      this.pending = this.pending.slice(0, this.pending.indexOf('\0') + 1 + NUMBER_CHARS + KEPT_TEXT_CHARS);
      this.skipping = true;
    }
  }

  /** The kept lines in component-wise path order, rendered as `path:LINE:text` / `path-LINE-text` when iterated. */
  lines(withLineNumbers: boolean, gapsBetweenFiles: boolean): ResultLines {
    const blocks = [...this.blocks.values()].sort((a, b) => comparePathsComponentWise(a.path, b.path));
    const sizes = blocks.map((block, index) => block.lines.length + (index > 0 && gapsBetweenFiles ? 1 : 0));
    return {
      total: sizes.reduce((sum, size) => sum + size, 0),
      *range(start: number, count: number) {
        let skip = start;
        let left = count;
        for (let index = 0; index < blocks.length && left > 0; index++) {
          const size = sizes[index] as number;
          if (skip >= size) {
            skip -= size;
            continue;
          }
          const block = blocks[index] as FileBlock;
          const shownPath = escapeForDisplay(block.path);
          const lead = index > 0 && gapsBetweenFiles ? 1 : 0;
          for (let at = skip; at < size && left > 0; at++, left--) {
            const line = at < lead ? null : block.lines[at - lead];
            if (line === null || line === undefined) {
              yield '--';
              continue;
            }
            const mark = line.isMatch ? ':' : '-';
            yield withLineNumbers
              ? `${shownPath}${mark}${line.lineNumber}${mark}${line.text}`
              : `${shownPath}${mark}${line.text}`;
          }
          skip = 0;
        }
      },
    };
  }

  /**
   * Parses the complete records of `output`; returns where the first incomplete one starts, with {@link scanned}
   * set relative to that start.
   */
  private parse(output: string): number {
    let position = 0;
    while (position < output.length) {
      // With `--crlf`, ripgrep ends some gap lines with `\r\n`.
      const gapLength = output.startsWith('--\n', position)
        ? 3
        : output.startsWith('--\r\n', position)
          ? 4
          : 0;
      if (gapLength > 0) {
        this.gapPending = true;
        position += gapLength;
        continue;
      }
      const nul = output.indexOf('\0', position);
      if (nul < 0) {
        this.scanned = 0;
        return position;
      }
      const newline = output.indexOf('\n', Math.max(nul, position + this.scanned));
      if (newline < 0) {
        this.scanned = output.length - position;
        return position;
      }
      this.scanned = 0;
      this.addRecord(output, position, nul, newline);
      this.gapPending = false;
      position = newline + 1;
    }
    return position;
  }

  private addRecord(output: string, start: number, nul: number, newline: number): void {
    let cursor = nul + 1;
    while (cursor < newline && output.charCodeAt(cursor) >= 48 && output.charCodeAt(cursor) <= 57) cursor++;
    const marker = output[cursor];
    if (cursor === nul + 1 || (marker !== ':' && marker !== '-')) return;
    const path = output.slice(start, nul);
    if (this.current?.path !== path) {
      let block = this.blocks.get(path);
      if (block === undefined) {
        this.verdicts.push({ path, kept: this.filter.keeps(path) });
        block = { path, lines: [] };
        this.blocks.set(path, block);
      } else {
        block.lines.push(null);
      }
      this.current = block;
    } else if (this.gapPending) {
      this.current.lines.push(null);
    }
    const textEnd = output.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
    this.current.lines.push({
      isMatch: marker === ':',
      lineNumber: Number(output.slice(nul + 1, cursor)),
      text: output.slice(cursor + 1, Math.min(textEnd, cursor + 1 + KEPT_TEXT_CHARS)),
    });
  }
}
