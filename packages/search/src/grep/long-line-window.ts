import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import { openRegularFile } from '@kimi-tools/core/toolkit';
import { SEARCH_ABORTED_MESSAGE } from '../errors.js';
import { GREP_LONG_LINE_LEAD_CHARS, GREP_MAX_LINE_CHARS } from '../limits.js';
import { byteOrderMark } from './byte-order-mark.js';

/** The part of a long line shown from near its first match (docs/grep.md, "Long lines"). */
export interface LineWindow {
  /** Characters of the line before the shown text. */
  skipped: number;
  /** Characters in the whole line, its line ending left out. */
  length: number;
  /** The line from the window's start: at least what the line cap can show, or up to the line's end. */
  text: string;
}

/** The marker a window starts with, after the `path:line:` prefix. */
export function windowMarker(window: LineWindow): string {
  return `[...${window.skipped} of ${window.length} characters skipped]`;
}

/** The window of a line ripgrep printed whole, whose first match starts at `matchChar`. */
export function windowInText(text: string, matchChar: number): LineWindow {
  let start = matchChar - GREP_LONG_LINE_LEAD_CHARS;
  // Never between the two halves of a surrogate pair: an emoji across the lead is taken whole.
  if (/[\uDC00-\uDFFF]/.test(text.charAt(start))) start -= 1;
  return { skipped: start, length: text.length, text: text.slice(start) };
}

/**
 * The index in `text` of the character at UTF-8 byte `byte` (ripgrep counts columns in bytes), or `undefined` past
 * the text. Bytes not valid UTF-8 were shown as one U+FFFD each, so the index may be off in such a line.
 */
export function charIndexOfByte(text: string, byte: number): number | undefined {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    if (bytes >= byte) return index;
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes >= byte ? text.length : undefined;
}

/** Bytes read at a time while the line is scanned for its end. */
const SCAN_CHUNK_BYTES = 1024 * 1024;

/** At most 4 bytes a character: this many bytes hold the lead before a match, and the window text after its start. */
const LEAD_BYTES = GREP_LONG_LINE_LEAD_CHARS * 4;
const TEXT_BYTES = GREP_MAX_LINE_CHARS * 4;

/** Where ripgrep's byte offsets start: 3 after a UTF-8 BOM (which it skips), unknown in UTF-16 (which it transcodes). */
async function offsetBase(handle: OpenFile): Promise<number | undefined> {
  const head = Buffer.alloc(3);
  const { bytesRead } = await handle.read(head, 0, 3, 0);
  const mark = byteOrderMark(head.subarray(0, bytesRead));
  return mark.utf16 === null ? mark.length : undefined;
}

/**
 * The window of a line ripgrep cut, read back from the file: the line starts `lineOffset` bytes into what ripgrep
 * searched and its first match `matchColumn` bytes into the line (1 for its first byte), as `--byte-offset` and
 * `--column` tell. The whole line is read once to count its characters. `undefined` when the file cannot be read, is
 * UTF-16 (ripgrep counted bytes of its own transcoding), or no longer has such a line (it changed since the search):
 * the line is then shown from its start.
 */
export async function windowInFile(
  fs: FileSystem,
  file: string,
  lineOffset: number,
  matchColumn: number,
  signal: AbortSignal | undefined,
): Promise<LineWindow | undefined> {
  let opened;
  try {
    opened = await openRegularFile(fs, file);
  } catch {
    return undefined;
  }
  if (typeof opened === 'string') return undefined;
  const { handle } = opened;
  try {
    const base = await offsetBase(handle);
    if (base === undefined) return undefined;
    const lineStart = base + lineOffset;
    const matchStart = lineStart + matchColumn - 1;
    const start = await windowStart(handle, lineStart, matchStart);
    const counts = await countLine(handle, lineStart, start, matchStart, signal);
    if (counts === undefined) return undefined;
    const text = Buffer.alloc(Math.min(TEXT_BYTES, counts.end - start));
    const { bytesRead } = await handle.read(text, 0, text.length, start);
    return {
      skipped: counts.skipped,
      length: counts.length,
      text: text.subarray(0, bytesRead).toString('utf8'),
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The byte where the window starts: {@link GREP_LONG_LINE_LEAD_CHARS} characters before the match, or the line's start. */
async function windowStart(handle: OpenFile, lineStart: number, matchStart: number): Promise<number> {
  const from = Math.max(lineStart, matchStart - LEAD_BYTES);
  const before = Buffer.alloc(matchStart - from);
  const { bytesRead } = await handle.read(before, 0, before.length, from);
  let at = bytesRead;
  let characters = 0;
  // A character starts at every byte that is not a UTF-8 continuation byte (10xxxxxx); one of four bytes (11110xxx) is
  // two UTF-16 units, as Grep counts characters. A character that crosses the lead is taken whole.
  while (at > 0 && characters < GREP_LONG_LINE_LEAD_CHARS) {
    at--;
    const byte = before[at] as number;
    if ((byte & 0xc0) !== 0x80) characters += byte >= 0xf0 ? 2 : 1;
  }
  return from + at;
}

/**
 * Reads the line from its start to its end, counting its characters (UTF-16 units, as the rest of Grep's output
 * counts them) before `windowStart` and in all; `end` is the byte where its text ends (before `\r\n` or `\n`).
 * `undefined` when the line ends before `matchStart`.
 */
async function countLine(
  handle: OpenFile,
  lineStart: number,
  windowStart: number,
  matchStart: number,
  signal: AbortSignal | undefined,
): Promise<{ skipped: number; length: number; end: number } | undefined> {
  const decoder = new StringDecoder('utf8');
  const count = (bytes: Buffer): number => (isAscii(bytes) ? bytes.length : decoder.write(bytes).length);
  const chunk = Buffer.alloc(SCAN_CHUNK_BYTES);
  let position = lineStart;
  let length = 0;
  let skipped = 0;
  let lastByte = -1;
  for (;;) {
    if (signal?.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    const read = chunk.subarray(0, bytesRead);
    const newline = read.indexOf(0x0a);
    const piece = newline < 0 ? read : read.subarray(0, newline);
    if (position < windowStart && position + piece.length >= windowStart) {
      length += count(piece.subarray(0, windowStart - position));
      skipped = length;
      length += count(piece.subarray(windowStart - position));
    } else {
      length += count(piece);
    }
    if (piece.length > 0) lastByte = piece[piece.length - 1] as number;
    position += piece.length;
    if (newline >= 0 || bytesRead === 0) break;
  }
  length += decoder.end().length;
  if (position <= matchStart) return undefined;
  // The `\r` of a `\r\n` ending is not part of the line's text.
  if (lastByte === 0x0d) return { skipped, length: length - 1, end: position - 1 };
  return { skipped, length, end: position };
}
