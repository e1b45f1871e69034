/**
 * Common prefix and suffix of a raw text (any line endings) and a '\n'-normalised text, compared as if the raw text
 * were normalised, without building that normalised copy (it would be another 100 MB string for a 100 MB file).
 */

/** Chunk size for comparing long runs: equal chunks compare as one memory comparison. */
const COMPARE_CHUNK = 1 << 14;

/** Length of the equal run of a[aFrom..] and b[bFrom..], at most `limit`. */
function equalForward(a: string, aFrom: number, b: string, bFrom: number, limit: number): number {
  let length = 0;
  while (length < limit) {
    const size = Math.min(limit - length, COMPARE_CHUNK);
    if (a.slice(aFrom + length, aFrom + length + size) !== b.slice(bFrom + length, bFrom + length + size))
      break;
    length += size;
  }
  while (length < limit && a.charCodeAt(aFrom + length) === b.charCodeAt(bFrom + length)) length++;
  return length;
}

/** Length of the equal run of a[..aEnd) and b[..bEnd) read backwards, at most `limit`. */
function equalBackward(a: string, aEnd: number, b: string, bEnd: number, limit: number): number {
  let length = 0;
  while (length < limit) {
    const size = Math.min(limit - length, COMPARE_CHUNK);
    if (a.slice(aEnd - length - size, aEnd - length) !== b.slice(bEnd - length - size, bEnd - length)) break;
    length += size;
  }
  while (length < limit && a.charCodeAt(aEnd - length - 1) === b.charCodeAt(bEnd - length - 1)) length++;
  return length;
}

/** A shared edge measured on both sides: characters of the raw text, characters of the normalised text. */
export interface SharedEdge {
  raw: number;
  normalized: number;
}

/** The longest common prefix; it never ends between the '\r' and '\n' of a CRLF. */
export function commonPrefix(raw: string, normalized: string): SharedEdge {
  let r = 0;
  let n = 0;
  for (;;) {
    const cr = raw.indexOf('\r', r);
    const plainLength = (cr === -1 ? raw.length : cr) - r;
    const equal = equalForward(raw, r, normalized, n, Math.min(plainLength, normalized.length - n));
    r += equal;
    n += equal;
    if (equal < plainLength || cr === -1 || normalized.charCodeAt(n) !== 10) return { raw: r, normalized: n };
    r += raw.charCodeAt(r + 1) === 10 ? 2 : 1;
    n += 1;
  }
}

/**
 * The longest common suffix, at most `limit` normalised characters; it never starts between the '\r' and '\n' of a
 * CRLF (the '\r' costs no normalised character, so it is taken along). The normalised text holds no '\r', so a
 * backward run stops at one by itself, and the raw text is never searched for one: on a 5 MB file without any,
 * looking for the last '\r' read all of it backwards (4 ms) however early the texts differed.
 */
export function commonSuffix(raw: string, normalized: string, limit: number): SharedEdge {
  let r = raw.length;
  let n = 0;
  while (n < limit) {
    const equal = equalBackward(raw, r, normalized, normalized.length - n, Math.min(r, limit - n));
    r -= equal;
    n += equal;
    if (n >= limit || r === 0 || raw.charCodeAt(r - 1) !== 13) break;
    const cr = r - 1;
    if (raw.charCodeAt(cr + 1) === 10) {
      r = cr;
    } else if (normalized.charCodeAt(normalized.length - n - 1) === 10) {
      r = cr;
      n += 1;
    } else {
      break;
    }
  }
  if (r > 0 && raw.charCodeAt(r) === 10 && raw.charCodeAt(r - 1) === 13) r -= 1;
  return { raw: r, normalized: n };
}
