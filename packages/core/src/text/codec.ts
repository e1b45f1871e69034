import { iconvLite } from '../fs/load-on-use.js';
import { bomBytes } from './bom.js';
import type { DecodeResult, DecodedText, TextEncoding } from './codec-types.js';
import { detectEncoding } from './encoding-detect.js';
import { detectLineEnding, normalizeLineEndings } from './line-endings.js';
import { utf8Bytes } from './utf8-bytes.js';

/** Thrown by `encodeText` when the text holds a character the file's encoding cannot store (never written lossily). */
export class UnencodableTextError extends Error {
  /** The first character that cannot be stored. */
  readonly character: string;
  /** The encoding that cannot store it. */
  readonly encoding: string;

  constructor(character: string, encoding: string) {
    const codePoint = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    super(`The character "${character}" (U+${codePoint}) cannot be encoded in ${encoding}.`);
    this.name = 'UnencodableTextError';
    this.character = character;
    this.encoding = encoding;
  }
}

/** Decodes a whole file per docs/encodings.md: BOM, UTF-8, or a legacy encoding that round-trips byte-exactly. */
export function decodeText(bytes: Uint8Array): DecodeResult {
  const detection = detectEncoding(bytes, true);
  if (!detection.ok) return detection;
  const raw = detection.text;
  // One look for a '\r' serves both: a text without one is its own normalised form, and its line ending is '\n'.
  const plain = !raw.includes('\r');
  const decoded: DecodedText = {
    raw,
    text: plain ? raw : normalizeLineEndings(raw),
    format: { ...detection.encoding, lineEnding: plain ? '\n' : detectLineEnding(raw) },
  };
  return { ok: true, decoded };
}

/**
 * Guesses the encoding of a sample (the whole file when `isWholeFile`): null when the bytes are binary or fit no
 * supported encoding. A sample cut in the middle of a character at its end is not held against the encoding.
 */
export function detectTextEncoding(sample: Uint8Array, isWholeFile: boolean): TextEncoding | null {
  const detection = detectEncoding(sample, isWholeFile);
  return detection.ok ? detection.encoding : null;
}

/** Whether `encoding` is UTF-8 or UTF-16: strictly decoded, its text and bytes map one to one. */
export function isUnicodeEncoding(encoding: string): boolean {
  return encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be';
}

/** A lone surrogate (possible in a JS string, never in a file) is the only thing Unicode cannot encode. */
function findLoneSurrogate(text: string): string | undefined {
  if ((text as string & { isWellFormed(): boolean }).isWellFormed()) return undefined;
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text)?.[0];
}

function roundTrips(text: string, encoding: string): boolean {
  const iconv = iconvLite();
  return iconv.decode(iconv.encode(text, encoding), encoding) === text;
}

/** Characters checked together while hunting for the one a legacy encoding cannot store. */
const SEARCH_CHUNK = 4096;

/** The first character of `text` that the legacy `encoding` cannot store (chunk by chunk, then one by one). */
function findUnencodableLegacy(text: string, encoding: string): string | undefined {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SEARCH_CHUNK);
    // Never cut a surrogate pair in two.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    const chunk = text.slice(start, end);
    if (!roundTrips(chunk, encoding)) {
      for (const character of chunk) if (!roundTrips(character, encoding)) return character;
    }
    start = end;
  }
  return undefined;
}

/** Whether every character of `text` can be stored in `encoding` (what `encodeText` would otherwise refuse). */
export function canEncodeText(text: string, encoding: TextEncoding): boolean {
  if (isUnicodeEncoding(encoding.encoding)) return findLoneSurrogate(text) === undefined;
  return roundTrips(text, encoding.encoding);
}

/** Encodes without a BOM; throws `UnencodableTextError` instead of writing a replacement character. */
function encodeBody(raw: string, encoding: string): Buffer {
  if (isUnicodeEncoding(encoding)) {
    const lone = findLoneSurrogate(raw);
    if (lone !== undefined) throw new UnencodableTextError(lone, encoding);
    if (encoding === 'utf-8') return utf8Bytes(raw);
    const utf16 = Buffer.from(raw, 'utf16le');
    return encoding === 'utf-16be' ? utf16.swap16() : utf16;
  }
  const iconv = iconvLite();
  const body = iconv.encode(raw, encoding);
  if (iconv.decode(body, encoding) !== raw) {
    throw new UnencodableTextError(findUnencodableLegacy(raw, encoding) ?? '\uFFFD', encoding);
  }
  return body;
}

/**
 * Encodes `raw` (line endings as they should be written) in `encoding`, adding its BOM when `bom`.
 * Throws `UnencodableTextError` rather than silently replacing a character the encoding cannot store.
 */
export function encodeText(raw: string, encoding: TextEncoding): Uint8Array {
  const body = encodeBody(raw, encoding.encoding);
  const bom = bomBytes(encoding);
  return bom.length > 0 ? Buffer.concat([bom, body]) : body;
}

/** A new file's format (docs/encodings.md#new-files): UTF-8 without a byte order mark. */
const NEW_FILE_ENCODING: TextEncoding = { encoding: 'utf-8', bom: false };

/**
 * The bytes of a new file holding `text`, line endings as given: UTF-8 without a BOM. Throws `UnencodableTextError`
 * for a lone surrogate, which `Buffer.from` and `TextEncoder` would write as U+FFFD without a word.
 */
export function encodeNewFile(text: string): Uint8Array {
  return encodeText(text, NEW_FILE_ENCODING);
}

export { createStreamDecoder, type StreamDecoder } from './codec-stream.js';
export type { DecodeResult, DecodedText, LineEnding, TextEncoding, TextFormat } from './codec-types.js';
