import { encodeChange, type DecodedText, type TextReplacement } from '@kimi-tools/core/toolkit';
import { readRange, type WindowRange } from './edit-windows.js';
import type { StreamedFile } from './plan-streamed-edit.js';

/** A window's new bytes, and the range of the file and its old bytes that they replace. */
export interface EncodedWindow {
  range: WindowRange;
  oldBytes: Buffer;
  written: Uint8Array;
}

/** Whether the file holds `pattern` at `[from, from + pattern.length)`, inside `[start, size)`. */
async function holdsAt(file: StreamedFile, pattern: Uint8Array, from: number): Promise<boolean> {
  const to = from + pattern.length;
  if (from < file.format.start || to > file.size) return false;
  return (await readRange(file.handle, from, to)).equals(pattern);
}

/**
 * The edited window encoded as the in-memory path encodes the same change of the whole file. A line break the edit
 * writes must not fuse into a `\r\n` with a lone `\r` before it or a `\n` after it, so it is written around them
 * (docs/str-replace-file.md#replacing); the window alone cannot see a lone `\r` just before it or a `\n` just after
 * it, so those are put around the window for the encoding. Their bytes are kept as they are, unless the in-memory
 * path rewrites them too; the range then takes them in.
 */
export async function encodeWindow(
  file: StreamedFile,
  range: WindowRange,
  bytes: Buffer,
  decoded: DecodedText,
  replacements: readonly TextReplacement[],
): Promise<EncodedWindow> {
  const { cr, lf } = file.format.breaks;
  // A window never starts or ends between a `\r` and its `\n`: a `\r` before it is a lone one, a `\n` after it is
  // no half of a `\r\n` either.
  const before = (await holdsAt(file, cr, range.start - cr.length)) ? '\r' : '';
  const after = (await holdsAt(file, lf, range.end)) ? '\n' : '';
  if (before === '' && after === '') {
    return { range, oldBytes: bytes, written: encodeChange(decoded, bytes, replacements) };
  }
  const none = new Uint8Array();
  const oldBytes = Buffer.concat([before === '' ? none : cr, bytes, after === '' ? none : lf]);
  const around: DecodedText = {
    raw: before + decoded.raw + after,
    // A lone `\r` and a `\n` are one character each once normalised, as they are raw.
    text: (before === '' ? '' : '\n') + decoded.text + after,
    format: decoded.format,
  };
  const shift = before.length;
  const shifted = replacements.map(({ start, end, text }) => ({
    start: start + shift,
    end: end + shift,
    text,
  }));
  return {
    range: {
      ...range,
      start: range.start - (before === '' ? 0 : cr.length),
      end: range.end + (after === '' ? 0 : lf.length),
    },
    oldBytes,
    written: encodeChange(around, oldBytes, shifted),
  };
}
