import { BAD_REPLACEMENTS_MESSAGE } from '../errors.js';
import type { LineEnding } from './codec-types.js';
import { commonPrefix, commonSuffix } from './line-endings-common.js';
import { restoreMiddle } from './line-endings-middle.js';
import { hasOnlyLineEnding, normalizeLineEndings, rawOffsets } from './line-endings.js';
import type { TextReplacement } from './text-replacement.js';

/** A piece of a restored text: a range of the original raw text kept as it is, or new raw text. */
export type RawPiece = { keepFrom: number; keepTo: number } | { text: string };

/**
 * Middles at least this long in a file whose endings are all the dominant one are written by a plain substitution
 * (what the line matching would give there too): a total rewrite of a huge file stays linear.
 */
const UNIFORM_SHORTCUT_CHARS = 1 << 16;

/** The original raw text being restored, with what every region needs to know about it. */
class RestoreBase {
  private uniform: boolean | undefined;

  constructor(
    readonly raw: string,
    readonly lineEnding: LineEnding,
  ) {}

  /** Whether every line ending of the whole text is `lineEnding` (computed once, when first needed). */
  isUniform(): boolean {
    this.uniform ??= hasOnlyLineEnding(this.raw, this.lineEnding);
    return this.uniform;
  }
}

function crlfCount(raw: string): number {
  let count = 0;
  for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) count++;
  return count;
}

/**
 * The raw text for one region `[from, to)` of the original raw text replaced by `text` (`\n`-normalised). Where the
 * two agree at the start and at the end, the original characters are kept, so unchanged lines keep their exact
 * breaks; in the changed middle, breaks of lines that existed keep their bytes and new ones get the dominant ending.
 * Returns the pieces, or `undefined` when the region is unchanged.
 */
function restoreRegion(base: RestoreBase, from: number, to: number, text: string): RawPiece[] | undefined {
  const { raw, lineEnding } = base;
  const segment = raw.slice(from, to);
  const prefix = commonPrefix(segment, text);
  if (prefix.raw === segment.length && prefix.normalized === text.length) return undefined;
  const segmentLength = segment.length - crlfCount(segment);
  const suffix = commonSuffix(segment, text, Math.min(segmentLength, text.length) - prefix.normalized);
  const keepTo = from + prefix.raw;
  let resumeAt = from + suffix.raw;
  let middle = text.slice(prefix.normalized, text.length - suffix.normalized);
  // A kept lone '\r' must not meet a kept '\n' (they would read back as one CRLF): when nothing is written between
  // them, the '\n' joins the middle. A written middle stands between them, and restoreMiddle writes its own breaks
  // so that none fuses with either, keeping both.
  if (middle === '' && raw.charCodeAt(keepTo - 1) === 13 && raw.charCodeAt(resumeAt) === 10) {
    resumeAt += 1;
    middle += '\n';
  }
  // With '\n' the substitution would copy the middle unchanged (5 ms on 5 MB): the middle is then the result. A file
  // with no other break than '\n' has no break to keep either, so any middle of it is its own result (10,000 edits
  // of a 12,000-line file spent 200 ms matching their lines otherwise).
  const restored =
    (middle.length >= UNIFORM_SHORTCUT_CHARS || lineEnding === '\n') && base.isUniform()
      ? lineEnding === '\n'
        ? middle
        : middle.replace(/\n/g, lineEnding)
      : restoreMiddle(
          raw.slice(keepTo, resumeAt),
          middle,
          lineEnding,
          raw.slice(Math.max(0, keepTo - 1), keepTo),
          raw.slice(resumeAt, resumeAt + 1),
        );
  return [
    { keepFrom: from, keepTo },
    { text: restored },
    // The pulled-in '\n' may lie just past the region: the kept text then resumes after it.
    { keepFrom: resumeAt, keepTo: Math.max(to, resumeAt) },
  ];
}

/** Joins replacements that touch (one ends where the next starts) into one; throws on overlapping ones. */
function mergeTouching(replacements: readonly TextReplacement[]): TextReplacement[] {
  const merged: TextReplacement[] = [];
  for (const replacement of replacements) {
    const last = merged[merged.length - 1];
    if (replacement.start > replacement.end || (last && replacement.start < last.end)) {
      throw new RangeError(BAD_REPLACEMENTS_MESSAGE);
    }
    if (last && replacement.start === last.end) {
      last.end = replacement.end;
      last.text += replacement.text;
    } else {
      merged.push({ ...replacement });
    }
  }
  return merged;
}

/**
 * The raw text of `raw` (original line endings) after `replacements` of its `\n`-normalised form, as pieces: every
 * character outside the replaced regions is kept as it was, and so is every line break inside them that the change
 * did not touch; new breaks get `lineEnding`.
 */
export function restorePieces(
  raw: string,
  lineEnding: LineEnding,
  replacements: readonly TextReplacement[],
): RawPiece[] {
  const base = new RestoreBase(raw, lineEnding);
  const regions = mergeTouching(replacements);
  const bounds = rawOffsets(
    raw,
    regions.flatMap((region) => [region.start, region.end]),
  );
  const pieces: RawPiece[] = [];
  let cursor = 0;
  regions.forEach((region, index) => {
    const from = bounds[2 * index] as number;
    const to = bounds[2 * index + 1] as number;
    const restored = restoreRegion(base, from, to, normalizeLineEndings(region.text));
    if (restored === undefined) return;
    pieces.push({ keepFrom: cursor, keepTo: from }, ...restored);
    cursor = (restored[2] as { keepTo: number }).keepTo;
  });
  pieces.push({ keepFrom: cursor, keepTo: raw.length });
  return pieces.filter((piece) => ('text' in piece ? piece.text !== '' : piece.keepTo > piece.keepFrom));
}

/** The text the pieces of {@link restorePieces} stand for. */
export function joinPieces(raw: string, pieces: readonly RawPiece[]): string {
  return pieces
    .map((piece) => ('text' in piece ? piece.text : raw.slice(piece.keepFrom, piece.keepTo)))
    .join('');
}

/**
 * Writes the line endings back into `updated` ('\n'-normalised text derived from `originalRaw`; stray '\r' are
 * normalised too). Breaks the change did not touch keep their exact original bytes (a mixed file stays mixed), new
 * breaks get `lineEnding`, and an updated text without a final newline stays without one. Linear for a local change:
 * the common prefix and suffix are copied from `originalRaw` and only the lines in between are matched
 * (patience-style, O(n log n), so a completely different text is not quadratic either).
 */
export function restoreLineEndings(originalRaw: string, updated: string, lineEnding: LineEnding): string {
  const whole = { start: 0, end: originalRaw.length - crlfCount(originalRaw), text: updated };
  return joinPieces(originalRaw, restorePieces(originalRaw, lineEnding, [whole]));
}
