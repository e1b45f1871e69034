// The portable search's matching, which runs in a worker thread (a JavaScript regular expression backtracks: a pattern
// such as `.*a.*b` on a long line can take longer than anyone waits, and only a thread can be stopped then). It takes
// a file's bytes as they are read and prints what ripgrep would print for them with the arguments Grep passes
// (`--null`, line numbers, columns and byte offsets, `--max-columns-preview`), so the rest of Grep reads both
// searches' output alike. The worker runs this module's functions from their source text (`MATCHER_WORKER_SOURCE`),
// so each is self-contained: it uses only the others of this module and the globals of Node.

import type { MessagePort } from 'node:worker_threads';

/** A JavaScript regular expression: its source and flags (`g` is added). */
export interface MatcherRegex {
  readonly source: string;
  readonly flags: string;
}

/** What every file of one search is matched with. */
export interface MatcherOptions {
  /** The pattern (see `translatePattern`). */
  readonly regex: MatcherRegex;
  /** The pattern as ripgrep finds the column of a matched line, where that differs (see `translatePattern`). */
  readonly columnRegex?: MatcherRegex;
  /** An empty match also falls between the bytes of a character of several (ripgrep counts those). */
  readonly emptyAnywhere: boolean;
  readonly mode: 'content' | 'files_with_matches' | 'count_matches';
  /** Context lines before and after each match (content mode). */
  readonly before: number;
  readonly after: number;
  /** Whole files are matched at once and a match may span lines. */
  readonly multiline: boolean;
  /** Lines longer than this many bytes (with their ending) are printed as a preview (ripgrep's `--max-columns`). */
  readonly maxColumns: number;
}

/** One file being matched: bytes in, ripgrep's output out. */
export interface FileMatcher {
  /** Takes the next bytes of the file; returns the output they complete. */
  feed(bytes: Uint8Array): string;
  /** The file has ended: returns the rest of the output. */
  finish(): string;
  /** Nothing more can change the output (a files-mode match, or a binary file): the rest need not be read. */
  readonly done: boolean;
}

/**
 * A file searched for a pattern. `path` is printed before each of its lines; `explicit` is a file named by the search
 * (not met in a directory): ripgrep reads its NUL bytes as line ends instead of leaving the file out as binary.
 */
export function createFileMatcher(options: MatcherOptions, path: string, explicit: boolean): FileMatcher {
  /** ripgrep's read buffer: binary detection looks at a whole buffer, before any of it is searched. */
  const BUFFER_BYTES = 64 * 1024;
  const PREVIEW_TAIL = ' [... omitted end of long line]';
  const compile = ({ source, flags }: MatcherRegex) =>
    new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
  const regex = compile(options.regex);
  const columnRegex = options.columnRegex ? compile(options.columnRegex) : null;
  const content = options.mode === 'content';
  const withContext = options.before > 0 || options.after > 0;
  const wholeFile: Buffer[] = [];
  let pending: Buffer = Buffer.alloc(0);
  /** The first bytes, kept until there are enough to tell a byte order mark. */
  let head: Buffer = Buffer.alloc(0);
  let started = false;
  let utf16: InstanceType<typeof TextDecoder> | null = null;
  /** Number and byte offset of the line `pending` starts with. */
  let lineNumber = 1;
  let lineOffset = 0;
  let done = false;
  let binary = false;
  let count = 0;
  /** Empty matches between the bytes of a character (count mode). */
  let emptyInside = 0;
  let output = '';
  let lastPrinted = 0;
  let afterLeft = 0;
  const beforeLines: Array<{ number: number; offset: number; text: string; bytes: number }> = [];

  /** The bytes as ripgrep searches them: a UTF-8 BOM dropped, UTF-16 transcoded to UTF-8. */
  function decoded(bytes: Uint8Array, final: boolean): Buffer {
    let input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!started) {
      head = Buffer.concat([head, input]);
      if (head.length < 3 && !final) return Buffer.alloc(0);
      started = true;
      input = head;
      if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) input = input.subarray(3);
      else if (input[0] === 0xff && input[1] === 0xfe) {
        utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });
        input = input.subarray(2);
      } else if (input[0] === 0xfe && input[1] === 0xff) {
        utf16 = new TextDecoder('utf-16be', { ignoreBOM: true });
        input = input.subarray(2);
      }
    }
    if (utf16 === null) return input;
    return Buffer.from(utf16.decode(input, { stream: !final }), 'utf8');
  }

  /** `column`: of a matched line (`undefined`: ripgrep could not tell it, and prints none); `null`: a context line. */
  function print(
    number: number,
    offset: number,
    text: string,
    bytes: number,
    column: number | null | undefined,
  ): void {
    if (withContext && lastPrinted > 0 && number > lastPrinted + 1) output += '--\n';
    lastPrinted = number;
    let shown = text;
    if (bytes > options.maxColumns) {
      shown = Array.from(text.slice(0, options.maxColumns * 2))
        .slice(0, options.maxColumns)
        .join('');
      if (shown.length < text.length) shown += PREVIEW_TAIL;
    }
    output +=
      column === null
        ? `${path}\0${number}-${offset}-${shown}\n`
        : column === undefined
          ? `${path}\0${number}:${offset}:${shown}\n`
          : `${path}\0${number}:${column}:${offset}:${shown}\n`;
  }

  /** One line of the file in content mode, matched (`column` of its first match, see {@link print}) or not (`null`). */
  function line(
    number: number,
    offset: number,
    text: string,
    bytes: number,
    column: number | null | undefined,
  ): void {
    if (column !== null) {
      for (const before of beforeLines) {
        if (before.number > lastPrinted) print(before.number, before.offset, before.text, before.bytes, null);
      }
      beforeLines.length = 0;
      print(number, offset, text, bytes, column);
      afterLeft = options.after;
    } else if (afterLeft > 0) {
      afterLeft--;
      print(number, offset, text, bytes, null);
    } else if (options.before > 0) {
      beforeLines.push({ number, offset, text, bytes });
      if (beforeLines.length > options.before) beforeLines.shift();
    }
  }

  function isHighSurrogate(code: number): boolean {
    return code >= 0xd800 && code <= 0xdbff;
  }

  function isLowSurrogate(code: number): boolean {
    return code >= 0xdc00 && code <= 0xdfff;
  }

  /**
   * The matches in `text` as Rust's regex iterates them: leftmost first, never overlapping, and an empty match right
   * where the previous one ended is skipped.
   */
  function matchesIn(text: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    let at = 0;
    let lastEnd = -1;
    while (at <= text.length) {
      regex.lastIndex = at;
      const match = regex.exec(text);
      if (match === null) break;
      const start = match.index;
      const end = start + match[0].length;
      // A place between the two halves of an emoji is no place in the text (V8's search may stop there).
      if (isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1))) {
        at = start + 1;
        continue;
      }
      const step = (text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
      // Line by line, a `\r\n` ends the line at its `\r`: no empty match between the two.
      const inLineEnding =
        !options.multiline && text.charCodeAt(start - 1) === 13 && text.charCodeAt(start) === 10;
      if (start === end && options.emptyAnywhere && start < text.length && !inLineEnding) {
        // ripgrep searches bytes: after an empty match it tries each next byte, inside a character too.
        emptyInside += Buffer.byteLength(String.fromCodePoint(text.codePointAt(start) as number)) - 1;
      }
      if (start === end && (start === lastEnd || inLineEnding)) {
        at = start + step;
        continue;
      }
      found.push([start, end]);
      lastEnd = end;
      at = end > start ? end : end + step;
    }
    return found;
  }

  /**
   * Searches `bytes` (whole lines; the last one `unterminated` at the end of the file): lines matched, with the byte
   * column of their first match, counted and printed as the mode asks.
   */
  function search(bytes: Buffer, unterminated: boolean): void {
    const text = bytes.toString('utf8');
    emptyInside = 0;
    const matches = matchesIn(text);
    // Past the last line ending there is no line; at the end of an unterminated last line, ripgrep reports an empty
    // match only as the line's first, and prints that line without its column.
    let hidden = -1;
    while (matches.length > 0) {
      const [start, end] = matches[matches.length - 1] as [number, number];
      if (start !== text.length || end !== start) break;
      if (!unterminated) matches.pop();
      else {
        const lineStart = text.lastIndexOf('\n', start - 1) + 1;
        const previous = matches[matches.length - 2];
        if (previous !== undefined && previous[0] >= lineStart) matches.pop();
        else hidden = start;
        break;
      }
    }
    if (options.mode === 'files_with_matches') {
      if (matches.length > 0) {
        output += `${path}\0`;
        done = true;
      }
      return;
    }
    if (options.mode === 'count_matches') {
      count += matches.length + emptyInside;
      return;
    }
    printLines(text, bytes, matches, hidden);
  }

  /**
   * Walks the lines of `text` (and of `bytes`, for their offsets) as ReadFile splits them, and hands each that matters
   * to {@link line}.
   */
  function printLines(text: string, bytes: Buffer, matches: Array<[number, number]>, hidden: number): void {
    let next = 0;
    let charStart = 0;
    let byteStart = 0;
    let number = lineNumber;
    // A line is matched when a match starts in it; in multiline mode also when a match runs through it.
    let spanEnd = -1;
    const textLineEnd = lineEnds((code, from) => text.indexOf(code === 10 ? '\n' : '\r', from), text.length);
    const bytesLineEnd = lineEnds((code, from) => bytes.indexOf(code, from), bytes.length);
    while (charStart < text.length) {
      const charEnd = textLineEnd(charStart);
      const byteEnd = Math.min(bytesLineEnd(byteStart) + 1, bytes.length);
      let column: number | null | undefined = null;
      while (next < matches.length && (matches[next] as [number, number])[0] <= charEnd) {
        const [start, end] = matches[next] as [number, number];
        next++;
        if (column === null)
          column = start === hidden ? undefined : columnOf(text, charStart, charEnd, start);
        if (options.multiline) spanEnd = Math.max(spanEnd, end > start ? end - 1 : start);
      }
      if (column === null && spanEnd >= charStart) column = 1;
      if (column !== null || withContext) {
        line(number, lineOffset + byteStart, text.slice(charStart, charEnd), byteEnd - byteStart, column);
      } else if (next >= matches.length && spanEnd < charStart) {
        break; // nothing left to print in this part
      }
      number++;
      charStart = charEnd + 1;
      byteStart = byteEnd;
    }
  }

  /**
   * The byte column (from 1) of a matched line's first match, which starts at `start`; `undefined` where ripgrep finds
   * none when it looks again for the column, in its read buffer rather than in the line (a `\A` of a later line).
   */
  function columnOf(text: string, lineStart: number, lineEnd: number, start: number): number | undefined {
    let at = start;
    if (columnRegex !== null) {
      columnRegex.lastIndex = lineStart;
      const found = columnRegex.exec(text);
      if (found === null || found.index > lineEnd) return undefined;
      at = found.index;
    }
    return Buffer.byteLength(text.slice(lineStart, at)) + 1;
  }

  /**
   * Where each line ends, as ReadFile reads lines (docs/read-file.md): at a `\n`, or at a `\r` that is not the start
   * of a `\r\n`. `indexOf` finds a code unit (`\n` or `\r`) in a string's characters or a buffer's bytes, `length`
   * long; the function returned takes a line's start and gives the index of its break, or `length` when it has none.
   * A lone `\r` is looked for once until passed: most files have none, and a file searched is never scanned twice.
   */
  function lineEnds(
    indexOf: (code: number, from: number) => number,
    length: number,
  ): (from: number) => number {
    // The next `\r` from where it was last looked for: -1 when there is none left, -2 before the first look.
    let carriageReturn = -2;
    return (from) => {
      const newline = indexOf(10, from);
      const end = newline < 0 ? length : newline;
      if (carriageReturn !== -1 && carriageReturn < from) carriageReturn = indexOf(13, from);
      if (carriageReturn >= 0 && carriageReturn < end && carriageReturn + 1 !== newline)
        return carriageReturn;
      return end;
    };
  }

  /** The number of lines in `bytes` (whole lines, or the file's end): their breaks, and an unterminated last line. */
  function countLines(bytes: Buffer): number {
    const lineEnd = lineEnds((code, from) => bytes.indexOf(code, from), bytes.length);
    let lines = 0;
    for (let at = 0; at < bytes.length; at = lineEnd(at) + 1) lines++;
    return lines;
  }

  /** What a binary part does: a named file reads NUL as a line end (counts, lists); any other is left at once. */
  function binaryPart(part: Buffer): Buffer | null {
    if (part.indexOf(0) < 0) return part;
    if (explicit && !content) return Buffer.from(part.map((byte) => (byte === 0 ? 10 : byte)));
    binary = true;
    done = true;
    return null;
  }

  /** Searches the buffers of `pending` that are complete (all of them at the end of the file). */
  function searchBuffers(final: boolean): void {
    while (pending.length > 0 && !done) {
      let size = BUFFER_BYTES;
      if (pending.length < size && !final) return;
      let cut = pending.lastIndexOf(10, Math.min(size, pending.length) - 1);
      while (cut < 0 && size < pending.length) {
        size *= 2;
        cut = pending.lastIndexOf(10, Math.min(size, pending.length) - 1);
      }
      if (cut < 0 && !final) return;
      if (Math.min(size, pending.length) < size && !final) return;
      const end = cut < 0 ? pending.length : cut + 1;
      const part = binaryPart(pending.subarray(0, Math.min(size, pending.length)));
      if (part === null) return;
      const lines = part.subarray(0, end);
      search(lines, final && end === pending.length && pending[end - 1] !== 10);
      lineNumber += countLines(lines);
      lineOffset += end;
      pending = pending.subarray(end);
    }
  }

  function take(): string {
    const taken = output;
    output = '';
    return taken;
  }

  return {
    get done() {
      return done;
    },
    feed(bytes) {
      if (done) return '';
      const input = decoded(bytes, false);
      if (options.multiline) wholeFile.push(input);
      else {
        pending = pending.length === 0 ? input : Buffer.concat([pending, input]);
        searchBuffers(false);
      }
      return take();
    },
    finish() {
      if (!done) {
        const input = decoded(new Uint8Array(0), true);
        if (options.multiline) {
          const whole = binaryPart(Buffer.concat([...wholeFile, input]));
          if (whole !== null) search(whole, whole.length > 0 && whole[whole.length - 1] !== 10);
        } else {
          pending = Buffer.concat([pending, input]);
          searchBuffers(true);
        }
      }
      if (options.mode === 'count_matches' && count > 0 && !binary) output += `${path}\0${count}\n`;
      done = true;
      return take();
    },
  };
}

/**
 * The worker's side, on `port` (its `parentPort`): for each file `open` (with the options of its search), `data` (its
 * bytes) and `end`, answering `data` and `end` with the output they completed. One worker serves one search at a time,
 * and search after search.
 */
export function runMatcherWorker(port: MessagePort): void {
  const files = new Map<number, FileMatcher>();
  port.on('message', (message: WorkerRequest) => {
    if (message.type === 'open') {
      files.set(message.id, createFileMatcher(message.options, message.path, message.explicit));
      return;
    }
    const matcher = files.get(message.id) as FileMatcher;
    if (message.type === 'data') {
      const text = matcher.feed(message.bytes);
      port.postMessage({ id: message.id, text, done: matcher.done } satisfies WorkerAnswer);
    } else {
      files.delete(message.id);
      port.postMessage({ id: message.id, text: matcher.finish(), done: true } satisfies WorkerAnswer);
    }
  });
}

/** What the search sends the worker. */
export type WorkerRequest =
  | { type: 'open'; id: number; options: MatcherOptions; path: string; explicit: boolean }
  | { type: 'data'; id: number; bytes: Uint8Array }
  | { type: 'end'; id: number };

/** The worker's answer to `data` and `end`: the output they completed, and whether the file is done. */
export interface WorkerAnswer {
  id: number;
  text: string;
  done: boolean;
}

/**
 * The program a worker thread runs: this module's functions, from their source. Its port is reached through
 * `process.getBuiltinModule`, named only here, in text: a bundler rewrites a `require` in code for the module it
 * builds, which the worker is not, and an evaluated worker is a script or a module as its process was started
 * (`--input-type`), so neither `require` nor `import` is there in both.
 */
export const MATCHER_WORKER_SOURCE = `${createFileMatcher.toString()}
(${runMatcherWorker.toString()})(process.getBuiltinModule('node:worker_threads').parentPort);
`;
