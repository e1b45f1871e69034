import { encodeText, type TextFormat } from '@kimi-tools/core';

const BOM_BYTES: Record<string, number> = { 'utf-8': 3, 'utf-16le': 2, 'utf-16be': 2 };

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Bytes of `text` in a Unicode encoding, without BOM (`text` has no lone surrogate at its ends). */
function unicodeByteLength(text: string, encoding: string): number {
  return encoding === 'utf-8' ? Buffer.byteLength(text, 'utf8') : text.length * 2;
}

/** What changed between the original and the edited text: the untouched characters at each end. */
export interface EditedText {
  /** The original decoded text (BOM removed, original line breaks). */
  original: string;
  /** The edited text. */
  edited: string;
  /** Leading characters both share, untouched by the edits. */
  unchangedPrefix: number;
  /** Trailing characters both share, untouched by the edits. */
  unchangedSuffix: number;
}

/**
 * The bytes of the edited text in the file's format. For UTF-8 and UTF-16 files (decoded strictly, so their bytes
 * and text map one to one) only the changed middle is encoded and the original bytes are reused around it: the
 * result equals `encodeText(edited, format)` without re-encoding a huge file. Legacy encodings encode it all.
 */
export function encodeEdited(originalBytes: Uint8Array, text: EditedText, format: TextFormat): Uint8Array {
  const bomBytes = format.bom ? (BOM_BYTES[format.encoding] ?? 0) : 0;
  if (!(format.encoding in BOM_BYTES)) return encodeText(text.edited, format);
  let prefix = text.unchangedPrefix;
  let suffix = text.unchangedSuffix;
  // Never cut a surrogate pair: its halves only have bytes together.
  if (prefix > 0 && isHighSurrogate(text.original.charCodeAt(prefix - 1))) prefix -= 1;
  if (suffix > 0 && isLowSurrogate(text.original.charCodeAt(text.original.length - suffix))) suffix -= 1;
  const prefixBytes = bomBytes + unicodeByteLength(text.original.slice(0, prefix), format.encoding);
  const suffixBytes = unicodeByteLength(text.original.slice(text.original.length - suffix), format.encoding);
  const middle = encodeText(text.edited.slice(prefix, text.edited.length - suffix), {
    ...format,
    bom: false,
  });
  const bytes = Buffer.from(originalBytes.buffer, originalBytes.byteOffset, originalBytes.byteLength);
  return Buffer.concat([bytes.subarray(0, prefixBytes), middle, bytes.subarray(bytes.length - suffixBytes)]);
}
