import { ByteNameDecoder, localFileSystem, wellFormed } from '@kimi-tools/core/fs';
import { escapeForDisplay, showControlCharacters } from '@kimi-tools/core/toolkit';
import { sortByPathComponentWise } from '../common/compare-paths.js';
import { GREP_LONG_LINE_LEAD_CHARS, GREP_MAX_LINE_CHARS } from '../limits.js';
import {
  charIndexOfByte,
  windowInFile,
  windowInText,
  windowMarker,
  type LineWindow,
} from './long-line-window.js';
import type { ResultPathFilter } from './result-path-filter.js';
import { resultLineSeparators } from './shown-result-path.js';
import { ClippedLine, type ResultLine, type ResultLines } from './shape-output.js';

/** One line ripgrep printed in content mode, parsed. */
interface ContentLine {
  isMatch: boolean;
  lineNumber: number;
  /** Byte column of the line's first match (1 for its first byte); `null` for a context line or when unknown. */
  column: number | null;
  /** Byte offset of the line's start in the file (as ripgrep read it). */
  offset: number;
  /** The line without its line ending, cut past what the output could ever show of it. */
  text: string;
  /** Whether `text` is only the line's start (ripgrep's `--max-columns-preview`, or cut here): the rest is in the file. */
  partial: boolean;
}

/**
 * A file's lines in content mode, each as ripgrep printed it after the file name (`LINE:COLUMN:OFFSET:text`, its line
 * ending included), parsed only if it is shown; `null` marks a `--` gap between non-adjacent groups of the same file.
 */
interface FileBlock {
  path: string;
  lines: Array<string | null>;
  /** Its lines were searched again where ReadFile ends lines ({@link replaceLines}): their numbers are ReadFile's. */
  numberedAsReadFile?: boolean;
}

/**
 * No shown line is longer than {@link GREP_MAX_LINE_CHARS}: a longer text is kept only that far (and a character
 * more, so it still reads as too long and is cut and marked exactly as the whole line would be).
 */
const KEPT_TEXT_CHARS = GREP_MAX_LINE_CHARS + 1;

/**
 * An unfinished record longer than this keeps only its head (name, numbers, the text that can be shown) while the rest
 * of its line streams past unread. ripgrep prints at most {@link GREP_MAX_LINE_CHARS} characters of a long line, but
 * counts them as graphemes, and one letter followed by any number of combining marks is one.
 */
const LONG_RECORD_CHARS = 64 * 1024;

/** Room for the line number, column, byte offset and their markers in a record's kept head. */
const NUMBER_CHARS = 80;

/**
 * What ripgrep appends to the start it prints of a line longer than `--max-columns` bytes: matching lines say how many
 * matches follow, context lines that the line goes on.
 */
const PREVIEW_TAIL = / \[\.\.\. (?:omitted end of long line|\d+ more match(?:es)?)\]$/;

/**
 * ripgrep previews a line of more than {@link GREP_MAX_LINE_CHARS} bytes, its line ending included, and prints at least
 * that many characters of it, or the whole text: a printed start this long (in bytes) is a preview, and a line
 * printed whole that happens to end like a preview's tail is shorter.
 */
const PREVIEW_MIN_BYTES = GREP_MAX_LINE_CHARS - 1;

/**
 * The lone `\r` before byte `offset` of a file (`LoneCrCounter`): ripgrep numbers lines by `\n` alone, ReadFile ends
 * one at a lone `\r` too.
 */
export type LoneCrsBefore = (file: string, offset: number) => Promise<number>;

/** Reads a cut line's window back from its file (`windowInFile`); a test may count or replace it. */
export type WindowReader = (
  file: string,
  lineOffset: number,
  matchColumn: number,
) => Promise<LineWindow | undefined>;

/**
 * Content mode (`--null` after each file name; line numbers, columns and byte offsets always on) parsed while
 * ripgrep's output streams in: `path\0LINE:COLUMN:OFFSET:text\n` for a match, `path\0LINE-OFFSET-text\n` for a context
 * line, `--\n` for a gap. Lines of one file are gathered into one block even when ripgrep interleaved files; gaps
 * between files are dropped (the rendering puts its own). Each file is judged once by the filter, with the other files
 * first met in the same chunk and while the search goes on; the files it refuses are dropped by {@link settle}.
 * Nothing is rendered here: the page and the output cap decide which lines ever become strings. Only complete
 * records count: output cut short by a timeout or the output limit may end mid-record.
 *
 * In multiline mode ripgrep gives every line of a group of matched lines the column of the group's first match: only
 * the group's first line keeps it (a later line is inside a match, or starts one at an unknown place).
 */
export class ContentCollector {
  /**
   * Names that are not UTF-8 come as their byte escapes (docs/paths.md#names-that-are-not-utf-8); the text of the
   * lines is shown as before, each byte that is not UTF-8 as U+FFFD.
   */
  private readonly decoder = new ByteNameDecoder();
  /** Output not parsed yet: the start of a record whose end has not arrived. */
  private pending = '';
  /** Where in `pending` the search for the record's end resumes (a long line is scanned once, not per chunk). */
  private scanned = 0;
  private readonly blocks = new Map<string, FileBlock>();
  /** Files met in the chunk being parsed, judged together once it is. */
  private unjudged: string[] = [];
  /** The filter's verdicts on the files of each chunk, in the order the files first appeared. */
  private readonly verdicts: Array<{ paths: string[]; kept: Promise<boolean[]> }> = [];
  private current: FileBlock | undefined;
  private gapPending = false;
  /** Whether the rest of the line of the (long) record in `pending` is being skipped until its end arrives. */
  private skipping = false;

  /** Files a printed line of which holds a lone `\r`: ripgrep's line there is several of ReadFile's. */
  private readonly withLoneCr = new Set<string>();
  /** Whether the output being parsed holds a `\r` at all (most never does): only then are records looked at for one. */
  private mayHoldCr = false;

  private readonly multiline: boolean;
  private readonly readWindow: WindowReader;
  private readonly loneCrsBefore: LoneCrsBefore | undefined;
  /**
   * A record's numbers and their markers, as {@link parseLine} reads them: a record without them is not one (ripgrep's
   * note that a binary file matches). Sticky, so it is tried where the numbers start.
   */
  private readonly numbers = /\d+(?::\d*:\d*:|-\d*-)/y;

  constructor(
    private readonly filter: ResultPathFilter,
    options: { multiline?: boolean; readWindow?: WindowReader; loneCrsBefore?: LoneCrsBefore } = {},
  ) {
    this.multiline = options.multiline ?? false;
    this.loneCrsBefore = options.loneCrsBefore;
    this.readWindow =
      options.readWindow ??
      ((file, lineOffset, matchColumn) =>
        windowInFile(localFileSystem, file, lineOffset, matchColumn, undefined));
  }

  /** Waits for the filter's verdicts and drops the files it refused; call it once the output has all come in. */
  async settle(): Promise<void> {
    const kept = await Promise.all(this.verdicts.map((verdict) => verdict.kept));
    this.verdicts.forEach((verdict, batch) => {
      verdict.paths.forEach((path, index) => {
        if (!kept[batch]?.[index]) this.blocks.delete(path);
      });
    });
    this.verdicts.length = 0;
  }

  /**
   * The kept files with a lone `\r` in a printed line (once {@link settle}d): their lines are to be searched again
   * where ReadFile ends lines, and given to {@link replaceLines}.
   */
  get filesWithLoneCr(): string[] {
    return [...this.withLoneCr].filter((path) => this.blocks.has(path));
  }

  /**
   * Puts in place of a file's lines those of `output`: the file searched again, printed as ripgrep prints it, with
   * lines ended where ReadFile ends them (the portable search).
   */
  replaceLines(path: string, output: string): void {
    const block = this.blocks.get(path);
    if (block === undefined) return;
    block.lines.length = 0;
    block.numberedAsReadFile = true;
    this.current = block;
    this.scanned = 0;
    this.gapPending = false;
    this.parse(output);
    this.current = undefined;
  }

  /** How many files have lines kept (once {@link settle}d). */
  get kept(): number {
    return this.blocks.size;
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
    if (this.unjudged.length > 0) {
      // Judged while the search goes on; the refused files are dropped by `settle`.
      this.verdicts.push({ paths: this.unjudged, kept: this.filter.keepsEach(this.unjudged) });
      this.unjudged = [];
    }
    this.pending = end < text.length ? text.slice(end) : '';
    if (this.scanned > LONG_RECORD_CHARS) {
      // Its name ends at the first NUL (the record was cut only after one was found).
      this.pending = this.pending.slice(0, this.pending.indexOf('\0') + 1 + NUMBER_CHARS + KEPT_TEXT_CHARS);
      this.skipping = true;
    }
  }

  /**
   * The kept lines in component-wise path order, rendered as `path:LINE:text` / `path-LINE-text` when iterated (the
   * context lines come with the gaps between files: `gapsBetweenFiles` says both); a cut
   * matching line whose first match is not near its start is shown from near the match (docs/grep.md, "Long lines").
   */
  lines(withLineNumbers: boolean, gapsBetweenFiles: boolean): ResultLines {
    const blocks = sortByPathComponentWise([...this.blocks.values()], (block) => block.path);
    const sizes = blocks.map((block, index) => block.lines.length + (index > 0 && gapsBetweenFiles ? 1 : 0));
    const multiline = this.multiline;
    const separators = resultLineSeparators(gapsBetweenFiles, withLineNumbers);
    const show = (block: FileBlock, shownPath: string, at: number) =>
      this.show(block, shownPath, parseLine(block.lines, at, multiline), withLineNumbers);
    const countAhead = (block: FileBlock, from: number, to: number) => this.countAhead(block, from, to);
    return {
      total: sizes.reduce((sum, size) => sum + size, 0),
      async *range(start: number, count: number) {
        const slices = pageSlices(sizes, start, count);
        const leadOf = (index: number) => (index > 0 && gapsBetweenFiles ? 1 : 0);
        if (withLineNumbers) {
          for (const { index, from, to } of slices) {
            countAhead(blocks[index] as FileBlock, from - leadOf(index), to - leadOf(index));
          }
        }
        for (const { index, from, to } of slices) {
          const block = blocks[index] as FileBlock;
          const shownPath = escapeForDisplay(block.path, separators);
          const lead = leadOf(index);
          for (let at = from; at < to; at++) {
            const line = at < lead ? null : block.lines[at - lead];
            yield line === null || line === undefined ? '--' : await show(block, shownPath, at - lead);
          }
        }
      },
    };
  }

  /**
   * Starts counting the lone `\r` before the last of a file's lines `from` to `to` that a page shows, so the files of a
   * page are read at once rather than one after the other as their lines are made. What it finds (or fails to) is
   * what {@link show} finds.
   */
  private countAhead(block: FileBlock, from: number, to: number): void {
    if (this.loneCrsBefore === undefined || block.numberedAsReadFile) return;
    for (let at = Math.min(to, block.lines.length) - 1; at >= Math.max(from, 0); at--) {
      if (typeof block.lines[at] !== 'string') continue;
      const { offset } = parseLine(block.lines, at, this.multiline);
      this.loneCrsBefore(this.filter.absolute(block.path), offset).catch(() => undefined);
      return;
    }
  }

  private async show(
    block: FileBlock,
    shownPath: string,
    line: ContentLine,
    withLineNumbers: boolean,
  ): Promise<ResultLine> {
    const mark = line.isMatch ? ':' : '-';
    let prefix = `${shownPath}${mark}`;
    if (withLineNumbers) {
      const loneCrs =
        this.loneCrsBefore === undefined || block.numberedAsReadFile
          ? 0
          : await this.loneCrsBefore(this.filter.absolute(block.path), line.offset);
      prefix += `${line.lineNumber + loneCrs}${mark}`;
    }
    // The text as ReadFile shows a line (docs/grep.md#output-formats): a control character as its picture, one
    // character for one, so the counts and cuts below are the same.
    const whole = prefix + showControlCharacters(line.text);
    if (line.column === null || (!line.partial && whole.length <= GREP_MAX_LINE_CHARS)) return whole;
    const matchChar = charIndexOfByte(line.text, line.column - 1);
    if (matchChar !== undefined && matchChar < GREP_LONG_LINE_LEAD_CHARS) return whole;
    const window =
      line.partial || matchChar === undefined
        ? await this.readWindow(this.filter.absolute(block.path), line.offset, line.column)
        : windowInText(line.text, matchChar);
    if (window === undefined) return whole;
    return new ClippedLine(`${prefix}${windowMarker(window)}${showControlCharacters(window.text)}`);
  }

  /**
   * Parses the complete records of `output`; returns where the first incomplete one starts, with {@link scanned}
   * set relative to that start. The loop runs once per record: its state stays in locals, and a gap is looked for
   * only where a line starts with `-`. Fewer steps a record make V8's optimising compiler, whose work is paid by a
   * fresh process, take it up later or not at all (about 10 M instructions less for the 3,000 lines of the bench
   * tree's content case, `pnpm bench grep`).
   */
  private parse(output: string): number {
    const length = output.length;
    let position = 0;
    // Non-zero only for the record the previous chunk left unfinished: where the search for its end resumes.
    let resumeAt = this.scanned;
    let gap = this.gapPending;
    this.mayHoldCr = output.includes('\r', position);
    while (position < length) {
      if (output.charCodeAt(position) === DASH) {
        const gapLength = gapLineLength(output, position);
        if (gapLength > 0) {
          gap = true;
          position += gapLength;
          continue;
        }
      }
      const nul = output.indexOf('\0', position);
      if (nul < 0) {
        resumeAt = 0;
        break;
      }
      const from = position + resumeAt;
      const newline = output.indexOf('\n', from > nul ? from : nul);
      if (newline < 0) {
        resumeAt = length - position;
        break;
      }
      resumeAt = 0;
      this.addRecord(output, position, nul, newline, gap);
      gap = false;
      position = newline + 1;
    }
    this.scanned = resumeAt;
    this.gapPending = gap;
    return position;
  }

  /**
   * Files a complete record under its file's block, unparsed: most lines are never shown, so only its numbers are
   * checked here (the rest is {@link parseLine}'s, for the lines a page shows).
   */
  private addRecord(output: string, start: number, nul: number, newline: number, afterGap: boolean): void {
    this.numbers.lastIndex = nul + 1;
    if (!this.numbers.test(output)) return;
    const path = output.slice(start, nul);
    if (this.current?.path !== path) {
      let block = this.blocks.get(path);
      if (block === undefined) {
        this.unjudged.push(path);
        block = { path, lines: [] };
        this.blocks.set(path, block);
      } else {
        block.lines.push(null);
      }
      this.current = block;
    } else if (afterGap) {
      this.current.lines.push(null);
    }
    const line = output.slice(nul + 1, newline);
    const record = this.decoder.escapedAny ? wellFormed(line) : line;
    if (this.mayHoldCr && hasLoneCr(record)) this.withLoneCr.add(path);
    this.current.lines.push(record);
  }
}

/** Whether a record holds a `\r` other than the one of a `\r\n` that ends it. */
function hasLoneCr(record: string): boolean {
  const carriageReturn = record.indexOf('\r');
  return carriageReturn >= 0 && carriageReturn < record.length - 1;
}

/** Lines `start` to `start + count` of blocks `sizes` long: the part of each block they cover, `from` to `to`. */
function pageSlices(
  sizes: readonly number[],
  start: number,
  count: number,
): Array<{ index: number; from: number; to: number }> {
  const slices = [];
  let skip = start;
  let left = count;
  for (let index = 0; index < sizes.length && left > 0; index++) {
    const size = sizes[index] as number;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const to = Math.min(size, skip + left);
    slices.push({ index, from: skip, to });
    left -= to - skip;
    skip = 0;
  }
  return slices;
}

/** `-`: how gap lines start (and, rarely, a path). */
const DASH = 45;

/** The length of the gap line (`--`, ended by `\n` or, with `--crlf`, `\r\n`) at `position`; 0 if there is none. */
function gapLineLength(output: string, position: number): number {
  if (output.startsWith('--\n', position)) return 3;
  return output.startsWith('--\r\n', position) ? 4 : 0;
}

/**
 * Line `at` of a file's lines, parsed (its numbers were checked when it came in). In multiline mode, a matched line
 * right after another continues its group (see {@link ContentCollector}): its column is not its own.
 */
function parseLine(lines: ReadonlyArray<string | null>, at: number, multiline: boolean): ContentLine {
  const record = lines[at] as string;
  const lineNumber = readNumber(record, 0, record.length);
  const isMatch = record[lineNumber.end] === ':';
  const column = isMatch ? readNumber(record, lineNumber.end + 1, record.length) : undefined;
  const offset = readNumber(record, (column?.end ?? lineNumber.end) + 1, record.length);
  const textStart = offset.end + 1;
  // With `--crlf`, ripgrep ends lines with `\r\n`.
  let textEnd = record.charCodeAt(record.length - 1) === 13 ? record.length - 1 : record.length;
  const tail = PREVIEW_TAIL.exec(record.slice(Math.max(textStart, textEnd - 40), textEnd));
  const previewed =
    tail !== null &&
    Buffer.byteLength(record.slice(textStart, textEnd - tail[0].length)) >= PREVIEW_MIN_BYTES;
  if (previewed) textEnd -= (tail as RegExpExecArray)[0].length;
  const previous = multiline && isMatch && at > 0 ? lines[at - 1] : null;
  let continuesGroup = false;
  if (typeof previous === 'string') {
    const previousNumber = readNumber(previous, 0, previous.length);
    continuesGroup = previous[previousNumber.end] === ':' && previousNumber.value === lineNumber.value - 1;
  }
  return {
    isMatch,
    lineNumber: lineNumber.value,
    column: column === undefined || continuesGroup ? null : column.value,
    offset: offset.value,
    text: record.slice(textStart, Math.min(textEnd, textStart + KEPT_TEXT_CHARS)),
    partial: previewed || textEnd - textStart > KEPT_TEXT_CHARS,
  };
}

/** The decimal number at `from` (digits up to `limit`) and where it ends; `value` is NaN when there are none. */
function readNumber(output: string, from: number, limit: number): { value: number; end: number } {
  let end = from;
  while (end < limit && output.charCodeAt(end) >= 48 && output.charCodeAt(end) <= 57) end++;
  return { value: end > from ? Number(output.slice(from, end)) : Number.NaN, end };
}
