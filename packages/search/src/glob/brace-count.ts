// Counts how many patterns a brace expansion would produce, without producing them: `{a,b}` forty times over asks
// for 2^40 strings, which would exhaust memory long before a cap on the result could apply.

/** Index of the `}` closing the `{` at `open`, or -1 when it is never closed (then the `{` is literal). */
function closingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let index = open; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}' && --depth === 0) return index;
  }
  return -1;
}

/** The top-level comma-separated parts of a brace body. */
function alternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const character = body[index];
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}') depth--;
    else if (character === ',' && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** Size of a `{x..y}` or `{x..y..step}` range body (numbers or single letters), or `undefined` if it is none. */
function rangeSize(body: string): number | undefined {
  const match = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!match) return undefined;
  const value = (text: string) => (/^-?\d+$/.test(text) ? Number(text) : text.charCodeAt(0));
  const step = Math.max(1, Math.abs(Number(match[3] ?? 1)));
  return Math.floor(Math.abs(value(match[2]!) - value(match[1]!)) / step) + 1;
}

/**
 * How many patterns expanding the braces of `pattern` yields, or `Infinity` once that exceeds `limit` (counting
 * stops there, so the cost is bounded by the pattern's length).
 */
export function braceExpansionCount(pattern: string, limit: number): number {
  let count = 1;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      index++;
      continue;
    }
    if (character !== '{') continue;
    const close = closingBrace(pattern, index);
    if (close === -1) break;
    const body = pattern.slice(index + 1, close);
    const parts = alternatives(body);
    let groupSize = 0;
    if (parts.length > 1) {
      for (const part of parts) groupSize += braceExpansionCount(part, limit);
    } else {
      groupSize = rangeSize(body) ?? braceExpansionCount(body, limit);
    }
    count *= groupSize;
    if (count > limit) return Number.POSITIVE_INFINITY;
    index = close;
  }
  return count;
}
