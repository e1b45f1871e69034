import type { LineEnding } from './codec-types.js';
import { commonPrefix, commonSuffix } from './line-endings-common.js';
import { restoreMiddle } from './line-endings-middle.js';

/** How many of each line ending a text holds. */
interface EndingCounts {
  lf: number;
  crlf: number;
  cr: number;
}

function countLineEndings(raw: string): EndingCounts {
  let crlf = 0;
  let cr = 0;
  for (let at = raw.indexOf('\r'); at !== -1; at = raw.indexOf('\r', at + 1)) {
    if (raw.charCodeAt(at + 1) === 10) crlf++;
    else cr++;
  }
  let newlines = 0;
  for (let at = raw.indexOf('\n'); at !== -1; at = raw.indexOf('\n', at + 1)) newlines++;
  return { lf: newlines - crlf, crlf, cr };
}

/**
 * The most frequent line ending of `raw`; '\n' when there is none. Ties go to '\n', then '\r\n', then '\r'
 * (the Unix convention unless the file clearly prefers another).
 */
export function detectLineEnding(raw: string): LineEnding {
  const { lf, crlf, cr } = countLineEndings(raw);
  if (lf >= crlf && lf >= cr) return '\n';
  return crlf >= cr ? '\r\n' : '\r';
}

/** Turns every `\r\n` and lone `\r` into `\n`. */
export function normalizeLineEndings(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * Writes the line endings back into `updated` ('\n'-normalised text derived from `originalRaw`; stray '\r' are
 * normalised too). Breaks the change did not touch keep their exact original bytes (a mixed file stays mixed), new
 * breaks get `lineEnding`, and an updated text without a final newline stays without one. Linear for a local change:
 * the common prefix and suffix are copied from `originalRaw` and only the lines in between are matched
 * (patience-style, O(n log n), so a completely different text is not quadratic either).
 */
export function restoreLineEndings(originalRaw: string, updated: string, lineEnding: LineEnding): string {
  const target = normalizeLineEndings(updated);
  const counts = countLineEndings(originalRaw);
  const uniform =
    (counts.crlf === 0 && counts.cr === 0 && lineEnding === '\n') ||
    (counts.lf === 0 && counts.cr === 0 && lineEnding === '\r\n') ||
    (counts.lf === 0 && counts.crlf === 0 && lineEnding === '\r');
  // Every ending of the file equals `lineEnding`: kept and new lines alike get it.
  if (uniform) return lineEnding === '\n' ? target : target.replace(/\n/g, lineEnding);

  const prefix = commonPrefix(originalRaw, target);
  if (prefix.raw === originalRaw.length && prefix.normalized === target.length) return originalRaw;
  // Character-exact edges: every break before the first and after the last differing character is kept as is.
  const normalizedLength = originalRaw.length - counts.crlf;
  const suffix = commonSuffix(
    originalRaw,
    target,
    Math.min(normalizedLength, target.length) - prefix.normalized,
  );
  // A kept lone '\r' must not meet a kept '\n' (they would read back as one CRLF): the '\n' joins the middle.
  if (originalRaw.charCodeAt(prefix.raw - 1) === 13 && originalRaw.charCodeAt(suffix.raw) === 10) {
    suffix.raw += 1;
    suffix.normalized -= 1;
  }
  const middle = restoreMiddle(
    originalRaw.slice(prefix.raw, suffix.raw),
    target.slice(prefix.normalized, target.length - suffix.normalized),
    lineEnding,
    originalRaw.slice(Math.max(0, prefix.raw - 1), prefix.raw),
    originalRaw.slice(suffix.raw, suffix.raw + 1),
  );
  return originalRaw.slice(0, prefix.raw) + middle + originalRaw.slice(suffix.raw);
}
