import type { OpenFile } from '@kimi-tools/core/fs';
import {
  createStreamDecoder,
  detectLineEnding,
  detectTextEncoding,
  encodeText,
  readHandleUpTo,
  type TextFormat,
} from '@kimi-tools/core/toolkit';
import type { BreakBytes } from './line-breaks.js';

/** Bytes at the start of a streamed file its encoding and dominant line ending are judged from (64 KiB). */
export const STREAM_SAMPLE_BYTES = 64 * 1024;

/**
 * Encodings a file too large for memory is edited in: those where a byte string of encoded text can only be found at
 * a character boundary of the file (UTF-8, UTF-16 at even offsets, the ASCII-compatible single-byte encodings the
 * detection can name, where every byte is one character and `\n`, `\r` are their ASCII bytes). GBK, Shift_JIS, Big5
 * and EUC trail bytes can look like another character, so a byte match could cut a character there.
 */
const STREAMABLE_ENCODINGS = new Set([
  'utf-8',
  'utf-16le',
  'utf-16be',
  ...Array.from({ length: 9 }, (_, index) => `windows-${1250 + index}`),
  // ISO-8859-12 was never published.
  ...Array.from({ length: 16 }, (_, index) => `iso-8859-${index + 1}`).filter(
    (name) => name !== 'iso-8859-12',
  ),
  'koi8-r',
  'koi8-u',
]);

/** A streamed file's format, as far as the edit needs it. */
export interface StreamFormat {
  format: TextFormat;
  /** File offset of the first character. */
  start: number;
  breaks: BreakBytes;
}

/** Why a streamed file cannot be edited: not text, or text in an encoding a byte match is not safe in. */
export type StreamFormatRefusal = { reason: 'not-text' } | { reason: 'encoding'; encoding: string };

/** Decodes `bytes` of a streamed file (no BOM in them) in its encoding. */
export function decodeIn(bytes: Uint8Array, format: TextFormat): string {
  const decoder = createStreamDecoder({ encoding: format.encoding, bom: false });
  return decoder.write(bytes) + decoder.end();
}

/** Encodes `text` in the file's encoding, without a BOM. */
export function encodeIn(text: string, format: TextFormat): Uint8Array {
  return encodeText(text, { encoding: format.encoding, bom: false });
}

/**
 * The format of a file too large for memory, judged from its first {@link STREAM_SAMPLE_BYTES}: encoding and BOM as
 * ReadFile detects them on a sample, and the dominant line ending of the sample.
 */
export async function streamFormatOf(
  handle: OpenFile,
  size: number,
): Promise<StreamFormat | StreamFormatRefusal> {
  const sample = await readHandleUpTo(handle, STREAM_SAMPLE_BYTES, Math.min(size, STREAM_SAMPLE_BYTES));
  const encoding = detectTextEncoding(sample, sample.length >= size);
  if (encoding === null) return { reason: 'not-text' };
  if (!STREAMABLE_ENCODINGS.has(encoding.encoding))
    return { reason: 'encoding', encoding: encoding.encoding };
  const raw = createStreamDecoder(encoding).write(sample);
  const format: TextFormat = { ...encoding, lineEnding: detectLineEnding(raw) };
  const start = encoding.bom ? encodeText('', encoding).length : 0;
  return {
    format,
    start,
    breaks: {
      unit: encoding.encoding.startsWith('utf-16') ? 2 : 1,
      lf: encodeIn('\n', format),
      cr: encodeIn('\r', format),
    },
  };
}
