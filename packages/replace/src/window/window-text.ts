import type { OpenFile } from '@kimi-tools/core/fs';
import type { ToolReturnValue } from '@kimi-tools/core';
import {
  countLineBreaks,
  createStreamDecoder,
  decodeText,
  encodeText,
  hashBytes,
  normalizeLineEndings,
  readHandleRange,
  readHandleUpTo,
  stampNeedsHash,
  UnencodableTextError,
  type DecodedText,
  type FileStamp,
} from '@kimi-tools/core/toolkit';
import type { EditCall } from '../edit/edit-call.js';
import { editTextRefusal, type StrReplaceFileBrief } from '../errors.js';
import { MAX_EDIT_FILE_BYTES } from '../limits.js';
import { matchEdits } from './match-in-windows.js';
import type { WindowFormat } from './file-format.js';
import { windowsOfEdits, type WindowRange } from './window-ranges.js';
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
  /** The call's read buffer, made by the scan of a file read in windows and reused by the copy. */
  buffer?: Buffer | undefined;
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

/** The text read, or why the file cannot be edited as read, and the stamp it is judged on. */
export interface TextRead {
  text: EditText | EditTextRefusal;
  stamp: FileStamp | undefined;
}

/**
 * The file read whole and decoded, as one window; undefined past `maxWholeBytes` (it does not fit in a string). A file
 * stamped on its descriptor first gets its bytes' hash in its stamp when the stamp needs one, so the read state and the
 * look under the lock judge exactly what is edited, as for a file read whole from the start.
 */
export async function readWhole(file: FileToEdit, stamp?: FileStamp): Promise<TextRead | undefined> {
  if (file.size > file.tuning.maxWholeBytes) return undefined;
  const bytes = await readHandleUpTo(file.handle, MAX_EDIT_FILE_BYTES + 1, file.size + 1);
  // Grown past what a string holds since it was stamped: the file is being rewritten under the edit.
  if (bytes.length > MAX_EDIT_FILE_BYTES) return { text: { refused: 'changing' }, stamp };
  const read = decodeText(bytes);
  if (!read.ok) return { text: { refused: 'not-text' }, stamp };
  const { decoded } = read;
  const window = { start: 0, end: bytes.length, firstLine: 1, cutStart: false, cutEnd: false, at: 0 };
  const text = {
    decoded,
    windows: [{ ...window, bytes, raw: decoded.raw, text: decoded.text }],
    whole: bytes,
    format: undefined,
  };
  return { text, stamp: stamp && stampNeedsHash(stamp) ? { ...stamp, hash: hashBytes(bytes) } : stamp };
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

/**
 * Step 2 of the edit of a file larger than `streamAboveBytes`, its read state judged
 * (docs/str-replace-file.md#files-read-in-windows): the windows around every place the edits may change, found by one
 * scan of the file, read and joined. The file is read whole, when it fits in a string, where the edit needs it: it
 * changed since the read and its lines are compared with the text kept of it (too large, it changed nearly all since:
 * the kept text is at most 1 MiB), or it is not text in its format past its first 64 KiB (decoded whole, maybe in
 * another encoding). Then the edits are matched (step 3).
 */
export async function readLargerFile(
  call: EditCall,
  format: WindowFormat,
  stamp: FileStamp,
  base: string | undefined,
): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const { file } = call;
  let read: TextRead;
  if (base !== undefined) read = (await readWhole(file, stamp)) ?? { text: { refused: 'changing' }, stamp };
  else {
    const found = await windowsOfEdits(file, format, call.edits, call.log);
    read = { text: 'refused' in found ? found : await readWindows(file, format, found), stamp };
    if ('refused' in found && found.refused === 'not-text') read = (await readWhole(file, stamp)) ?? read;
  }
  if ('refused' in read.text) return editTextRefusal(call, read.text);
  return matchEdits(call, { text: read.text, stamp: read.stamp, base });
}
