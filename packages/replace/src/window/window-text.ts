import type { OpenFile } from '@kimi-tools/core/fs';
import {
  countLineBreaks,
  createStreamDecoder,
  decodeText,
  encodeText,
  normalizeLineEndings,
  readHandleRange,
  readHandleUpTo,
  UnencodableTextError,
  type DecodedText,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import { MAX_EDIT_FILE_BYTES } from '../limits.js';
import type { WindowFormat } from './file-format.js';
import type { WindowRange } from './window-ranges.js';
import type { WindowTuning } from './window-tuning.js';

/**
 * Stands for the part of a line a cut window leaves out, and for the lines after the last window: no edit can match
 * it, since no text file holds a NUL character. A line between two windows stands as an empty line (a character
 * less to hold): no match reaches it, as every window takes in a line beyond any match of its hit.
 */
const UNREAD = '\0';

/** The open file an edit reads. */
export interface FileToEdit {
  handle: OpenFile;
  /** Its size as stamped: every read goes by it, as the write checks the file against it. */
  size: number;
  tuning: WindowTuning;
  signal?: AbortSignal | undefined;
}

/** One window of the file: its range, its bytes and their text, and where that text stands in the edited text. */
export interface TextWindow extends WindowRange {
  bytes: Uint8Array;
  raw: string;
  /** `raw`, `\n`-normalised. */
  text: string;
  /** Offset of `text` in the edited text. */
  at: number;
}

/**
 * The text an edit works on: the whole file as one window, or the windows of a larger file with every line between
 * them kept as an empty stand-in, so the edited text has the file's line numbers (no match reaches a stand-in).
 */
export interface EditText {
  decoded: DecodedText;
  windows: TextWindow[];
  /** The file's bytes, when it was read whole (one window from its first byte, BOM included). */
  whole: Uint8Array | undefined;
  /** The format windows are decoded and encoded in (undefined for a whole file, whose `decoded` has its format). */
  format: WindowFormat | undefined;
}

/** Why the file cannot be edited as read: not text, text in an encoding windows are not read in, or too much to read. */
export type EditTextRefusal =
  | { refused: 'not-text' }
  /**
   * Not what was checked or stamped any more (grown past what a string holds while it was read, a window that no
   * longer decodes): it is being rewritten under the edit.
   */
  | { refused: 'changing' }
  | { refused: 'encoding'; encoding: string }
  | { refused: 'too-many-places' };

/** The file read whole and decoded, as one window. */
export async function readWhole(file: FileToEdit): Promise<EditText | EditTextRefusal> {
  const bytes = await readHandleUpTo(file.handle, MAX_EDIT_FILE_BYTES + 1, file.size + 1);
  if (bytes.length > MAX_EDIT_FILE_BYTES) return { refused: 'changing' };
  const read = decodeText(bytes);
  if (!read.ok) return { refused: 'not-text' };
  const { decoded } = read;
  const window = { start: 0, end: bytes.length, firstLine: 1, cutStart: false, cutEnd: false, at: 0 };
  return {
    decoded,
    windows: [{ ...window, bytes, raw: decoded.raw, text: decoded.text }],
    whole: bytes,
    format: undefined,
  };
}

/** Whether `bytes` decode to a text that encodes back to them exactly. */
function decodeExactly(bytes: Uint8Array, format: WindowFormat): string | undefined {
  const encoding = { encoding: format.format.encoding, bom: false };
  const decoder = createStreamDecoder(encoding);
  const raw = decoder.write(bytes) + decoder.end();
  try {
    return Buffer.from(encodeText(raw, encoding)).equals(bytes) ? raw : undefined;
  } catch (error) {
    if (error instanceof UnencodableTextError) return undefined;
    throw error;
  }
}

/**
 * Reads the windows `ranges` (sorted, apart; `maxWindowBytes` together at most) of the file and joins their text,
 * each line between them standing in as an empty line, what a cut leaves out as {@link UNREAD}. Every window must decode to text that encodes back to its exact
 * bytes, as the scan checked the whole file does (the kept bytes are found by the encoded length of the text): one
 * that does not means the file changed since.
 */
export async function readWindows(
  file: FileToEdit,
  format: WindowFormat,
  ranges: readonly WindowRange[],
): Promise<EditText | EditTextRefusal> {
  if (ranges.reduce((sum, range) => sum + range.end - range.start, 0) > file.tuning.maxWindowBytes)
    return { refused: 'too-many-places' };
  const raws: string[] = [];
  const texts: string[] = [];
  const windows: TextWindow[] = [];
  let at = 0;
  let line = 1;
  let offset = format.start;
  let cutEnd = false;
  const add = (raw: string, text: string) => {
    raws.push(raw);
    texts.push(text);
    at += text.length;
  };
  for (const range of ranges) {
    const bytes = await readHandleRange(file.handle, range.start, range.end);
    const raw = decodeExactly(bytes, format);
    if (raw === undefined) return { refused: 'changing' };
    const text = normalizeLineEndings(raw);
    if (range.start > offset) {
      const gap =
        (cutEnd ? UNREAD : '') + '\n'.repeat(range.firstLine - line) + (range.cutStart ? UNREAD : '');
      add(gap, gap);
    }
    windows.push({ ...range, bytes, raw, text, at });
    add(raw, text);
    line = range.firstLine + countLineBreaks(text);
    offset = range.end;
    cutEnd = range.cutEnd;
  }
  if (offset < file.size) add(UNREAD, UNREAD);
  const raw = raws.join('');
  const text = raws.every((piece, index) => piece === texts[index]) ? raw : texts.join('');
  return {
    decoded: { raw, text, format: { ...format.format, bom: false } },
    windows,
    whole: undefined,
    format,
  };
}

/** A window's part of a change: its replacements (offsets of its own text), its new text and where that starts. */
export interface WindowChange {
  window: TextWindow;
  replacements: readonly TextReplacement[];
  newText: string;
  /** The line its new text starts on in the changed file. */
  newFirstLine: number;
}

function applied(text: string, replacements: readonly TextReplacement[]): string {
  let result = '';
  let at = 0;
  for (const { start, end, text: written } of replacements) {
    result += text.slice(at, start) + written;
    at = end;
  }
  return result + text.slice(at);
}

/**
 * The change (replacements of the edited text, sorted and apart, and the text they make) split by window, with the
 * lines of the changed file.
 * No replacement reaches a window's edge inside the file: a window takes in a line, or more bytes than any match may
 * take, beyond every match of its hit, so the bytes around a window are never part of a change, and the window is
 * encoded alone as the whole file would be. Throws when a replacement reaches outside the windows, which their reach
 * rules out.
 */
export function windowChanges(
  text: EditText,
  replacements: readonly TextReplacement[],
  newText: string,
): WindowChange[] {
  // A whole file's new text is the edited text's.
  if (text.whole) {
    const [window] = text.windows;
    return window ? [{ window, replacements, newText, newFirstLine: 1 }] : [];
  }
  const changes: WindowChange[] = [];
  let next = 0;
  let lineShift = 0;
  for (const window of text.windows) {
    const local: TextReplacement[] = [];
    const end = window.at + window.text.length;
    for (; next < replacements.length && replacements[next]!.start < end; next++) {
      const { start, end: to, text: written } = replacements[next]!;
      if (start < window.at || to > end) break;
      local.push({ start: start - window.at, end: to - window.at, text: written });
    }
    if (local.length === 0) continue;
    const changed = applied(window.text, local);
    changes.push({
      window,
      replacements: local,
      newText: changed,
      newFirstLine: window.firstLine + lineShift,
    });
    lineShift += countLineBreaks(changed) - countLineBreaks(window.text);
  }
  if (next < replacements.length) throw new Error('An edit reached past the part of the file that was read.');
  return changes;
}
