import type { OpenFile } from '@kimi-tools/core/fs';
import {
  createStreamDecoder,
  detectLineEnding,
  detectTextEncoding,
  encodeText,
  readHandleUpTo,
  type FileStamp,
  type TextFormat,
} from '@kimi-tools/core/toolkit';
import type { BreakBytes } from './scan-needles.js';
import { readWhole, type FileToEdit, type TextRead } from './window-text.js';

/** Bytes at the start of a file read in windows its encoding and dominant line ending are judged from (64 KiB). */
export const STREAM_SAMPLE_BYTES = 64 * 1024;

/**
 * Encodings a file is read in windows in: those where a byte string of encoded text can only be found at a character
 * boundary of the file (UTF-8, UTF-16 at even offsets, the ASCII-compatible single-byte encodings the detection can
 * name, where every byte is one character and `\n`, `\r` are their ASCII bytes). GBK, Shift_JIS, Big5 and EUC trail
 * bytes can look like another character, so a byte match could cut a character there.
 */
const WINDOW_ENCODINGS = new Set([
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

/** The format of a file read in windows, as far as the edit needs it. */
export interface WindowFormat {
  format: TextFormat;
  /** File offset of the first character. */
  start: number;
  breaks: BreakBytes;
}

/** Why a file cannot be read in windows: not text, or text in an encoding a byte match is not safe in. */
type WindowFormatRefusal = { refused: 'not-text' } | { refused: 'encoding'; encoding: string };

/**
 * The format of a file read in windows, judged from its first {@link STREAM_SAMPLE_BYTES}: encoding and BOM as ReadFile
 * detects them on a sample, and the dominant line ending of the sample.
 */
async function formatOfSample(handle: OpenFile, size: number): Promise<WindowFormat | WindowFormatRefusal> {
  const sample = await readHandleUpTo(handle, STREAM_SAMPLE_BYTES, Math.min(size, STREAM_SAMPLE_BYTES));
  const encoding = detectTextEncoding(sample, sample.length >= size);
  if (encoding === null) return { refused: 'not-text' };
  if (!WINDOW_ENCODINGS.has(encoding.encoding)) return { refused: 'encoding', encoding: encoding.encoding };
  const raw = createStreamDecoder(encoding).write(sample);
  const format: TextFormat = { ...encoding, lineEnding: detectLineEnding(raw) };
  const start = encoding.bom ? encodeText('', encoding).length : 0;
  return {
    format,
    start,
    breaks: {
      unit: encoding.encoding.startsWith('utf-16') ? 2 : 1,
      lf: encodeText('\n', { ...encoding, bom: false }),
      cr: encodeText('\r', { ...encoding, bom: false }),
    },
  };
}

/**
 * How a file larger than `streamAboveBytes`, stamped, is read (docs/str-replace-file.md#files-read-in-windows): in
 * windows of the format judged from its first 64 KiB or, when its encoding needs the whole file judged (or its start is
 * not text), whole when it fits in a string, with its bytes' hash in its stamp.
 */
export async function windowFormatOrWhole(
  file: FileToEdit,
  stamp: FileStamp,
): Promise<WindowFormat | TextRead> {
  const sampled = await formatOfSample(file.handle, file.size);
  if (!('refused' in sampled)) return sampled;
  return (await readWhole(file, stamp)) ?? { text: sampled, stamp };
}
