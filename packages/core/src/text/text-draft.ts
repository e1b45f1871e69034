import { BAD_REPLACEMENTS_MESSAGE } from '../errors.js';
import type { DecodedText } from './codec-types.js';
import { normalizedOffsets } from './line-endings.js';
import { joinPieces, restorePieces } from './restore-line-endings.js';
import type { TextReplacement } from './text-replacement.js';

/** A piece of the current text: a range of the original `\n`-normalised text, or text the changes put in. */
type Piece = { from: number; to: number } | string;

function pieceLength(piece: Piece): number {
  return typeof piece === 'string' ? piece.length : piece.to - piece.from;
}

function slicePiece(piece: Piece, start: number, end: number): Piece {
  return typeof piece === 'string'
    ? piece.slice(start, end)
    : { from: piece.from + start, to: piece.from + end };
}

/**
 * A decoded text being changed step by step on its `\n`-normalised form, each change applied to the result of the
 * ones before, while remembering which parts are still the file's own characters. {@link replacements} sums the
 * changes up for `encodeChange`, which writes every untouched byte back as it was.
 */
export class TextDraft {
  private pieces: Piece[];
  private currentText: string | undefined;
  private currentRaw: string | undefined;

  constructor(readonly decoded: DecodedText) {
    this.pieces = decoded.text.length > 0 ? [{ from: 0, to: decoded.text.length }] : [];
    this.currentText = decoded.text;
    this.currentRaw = decoded.raw;
  }

  /** The current text, `\n`-normalised (what the model sees). */
  get text(): string {
    this.currentText ??= this.pieces
      .map((piece) => (typeof piece === 'string' ? piece : this.decoded.text.slice(piece.from, piece.to)))
      .join('');
    return this.currentText;
  }

  /**
   * The current text as it would be written: line breaks the changes left alone keep their original bytes, new ones
   * get the file's dominant line ending.
   */
  get raw(): string {
    this.currentRaw ??= joinPieces(
      this.decoded.raw,
      restorePieces(this.decoded.raw, this.decoded.format.lineEnding, this.replacements),
    );
    return this.currentRaw;
  }

  /** Offsets in {@link raw} (sorted ascending) as offsets in {@link text}. */
  textOffsets(rawOffsets: readonly number[]): number[] {
    return normalizedOffsets(this.raw, rawOffsets);
  }

  /** Every change so far, as replacements of the original text (sorted, apart): what `encodeChange` takes. */
  get replacements(): TextReplacement[] {
    const result: TextReplacement[] = [];
    let originalAt = 0;
    let inserted = '';
    for (const piece of this.pieces) {
      if (typeof piece === 'string') {
        inserted += piece;
        continue;
      }
      if (piece.from !== originalAt || inserted !== '') {
        result.push({ start: originalAt, end: piece.from, text: inserted });
      }
      originalAt = piece.to;
      inserted = '';
    }
    if (originalAt !== this.decoded.text.length || inserted !== '') {
      result.push({ start: originalAt, end: this.decoded.text.length, text: inserted });
    }
    return result;
  }

  /**
   * Replaces ranges of the current {@link text} (sorted by `start`, not overlapping; `text` `\n`-normalised). Throws
   * a `RangeError` for ranges that are unsorted, overlapping or outside the text.
   */
  replace(changes: readonly TextReplacement[]): void {
    const output: Piece[] = [];
    let index = 0;
    let offsetInPiece = 0;
    let position = 0;
    /** Moves the cursor to `target`, copying what it passes over when `keep`. */
    const advance = (target: number, keep: boolean) => {
      while (position < target) {
        const piece = this.pieces[index];
        if (piece === undefined) throw new RangeError(BAD_REPLACEMENTS_MESSAGE);
        const take = Math.min(pieceLength(piece) - offsetInPiece, target - position);
        if (keep) output.push(slicePiece(piece, offsetInPiece, offsetInPiece + take));
        position += take;
        offsetInPiece += take;
        if (offsetInPiece === pieceLength(piece)) {
          index++;
          offsetInPiece = 0;
        }
      }
    };
    for (const change of changes) {
      if (change.start < position || change.end < change.start) {
        throw new RangeError(BAD_REPLACEMENTS_MESSAGE);
      }
      advance(change.start, true);
      advance(change.end, false);
      if (change.text !== '') output.push(change.text);
    }
    advance(this.totalLength(), true);
    this.pieces = output.filter((piece) => pieceLength(piece) > 0);
    this.currentText = undefined;
    this.currentRaw = undefined;
  }

  private totalLength(): number {
    return this.pieces.reduce((sum, piece) => sum + pieceLength(piece), 0);
  }
}
