import { bomBytes, bomLength } from './bom.js';
import { canEncodeText, encodeText, isUnicodeEncoding } from './codec.js';
import type { DecodedText } from './codec-types.js';
import { joinPieces, restorePieces, type RawPiece } from './restore-line-endings.js';
import type { TextReplacement } from './text-replacement.js';

function isHighSurrogate(raw: string, at: number): boolean {
  const code = raw.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(raw: string, at: number): boolean {
  const code = raw.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The pieces with no kept range cutting a surrogate pair whose other half the change replaced: that half moves into
 * the new text beside it, to be encoded with it (a pair the change really split then cannot be encoded, as it must).
 */
function keepWholeCharacters(raw: string, pieces: readonly RawPiece[]): RawPiece[] {
  const result: RawPiece[] = [];
  const pushText = (text: string) => {
    const last = result[result.length - 1];
    if (last && 'text' in last) last.text += text;
    else result.push({ text });
  };
  pieces.forEach((piece, index) => {
    if ('text' in piece) {
      pushText(piece.text);
      return;
    }
    let { keepFrom, keepTo } = piece;
    const previous = result[result.length - 1];
    const joinsPrevious = previous !== undefined && !('text' in previous) && previous.keepTo === keepFrom;
    if (!joinsPrevious && isLowSurrogate(raw, keepFrom) && isHighSurrogate(raw, keepFrom - 1)) {
      pushText(raw.charAt(keepFrom));
      keepFrom += 1;
    }
    const next = pieces[index + 1];
    const joinsNext = next !== undefined && !('text' in next) && next.keepFrom === keepTo;
    const cutsPair = !joinsNext && isHighSurrogate(raw, keepTo - 1) && isLowSurrogate(raw, keepTo);
    if (cutsPair && keepTo - 1 >= keepFrom) keepTo -= 1;
    if (keepTo > keepFrom) result.push({ keepFrom, keepTo });
    if (cutsPair) pushText(raw.charAt(keepTo));
  });
  return result;
}

/**
 * The bytes of a changed text file, in its own format: `change` is the new `\n`-normalised text, or replacements of
 * `decoded.text` (as a `TextDraft` sums them up). Every line break the change did not touch keeps its original bytes
 * and new ones get the file's dominant line ending; the encoding and BOM are the file's. For UTF-8 and UTF-16 files
 * the original bytes (`originalBytes`, which `decoded` was decoded from) are reused outside the changed regions, so a
 * small edit of a huge file encodes only what changed. Throws `UnencodableTextError` for text the encoding cannot
 * store.
 */
export function encodeChange(
  decoded: DecodedText,
  originalBytes: Uint8Array,
  change: string | readonly TextReplacement[],
): Uint8Array {
  const { raw, format } = decoded;
  // A whole new text for a file with '\n' breaks only, in an encoding that gives every character the same bytes
  // wherever it stands: there are no breaks to restore and no bytes to keep that encoding would not give again
  // (the old text's lone surrogates aside, which only the kept bytes can hold).
  if (
    typeof change === 'string' &&
    isUnicodeEncoding(format.encoding) &&
    raw === decoded.text &&
    canEncodeText(change, format)
  ) {
    return encodeText(change, format);
  }
  const replacements =
    typeof change === 'string' ? [{ start: 0, end: decoded.text.length, text: change }] : change;
  const pieces = restorePieces(raw, format.lineEnding, replacements);
  if (!isUnicodeEncoding(format.encoding)) return encodeText(joinPieces(raw, pieces), format);

  const byteLength = (from: number, to: number) =>
    format.encoding === 'utf-8' ? Buffer.byteLength(raw.slice(from, to), 'utf8') : (to - from) * 2;
  const bytes = Buffer.from(originalBytes.buffer, originalBytes.byteOffset, originalBytes.byteLength);
  const parts: Uint8Array[] = [bomBytes(format)];
  let rawAt = 0;
  let byteAt = bomLength(format);
  const kept = keepWholeCharacters(raw, pieces);
  // A whole new text (nothing kept) is encoded as one: no second copy of 5 MB to join it to the BOM.
  const only = kept[0];
  if (kept.length === 1 && only !== undefined && 'text' in only) return encodeText(only.text, format);
  for (const piece of kept) {
    if ('text' in piece) {
      parts.push(encodeText(piece.text, { encoding: format.encoding, bom: false }));
      continue;
    }
    const from = byteAt + byteLength(rawAt, piece.keepFrom);
    byteAt = from + byteLength(piece.keepFrom, piece.keepTo);
    rawAt = piece.keepTo;
    parts.push(bytes.subarray(from, byteAt));
  }
  return Buffer.concat(parts);
}
