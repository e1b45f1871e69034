/** How far two texts agree from their start and from their end. */
export interface CommonEnds {
  /** The length of their common start. */
  readonly start: number;
  /** The length of their common end, not overlapping the common start of either text. */
  readonly end: number;
}

/**
 * Characters compared per step before the search narrows to single characters. Comparing two slices is one native
 * comparison of their characters, about 30 times faster on a 1 MB file than comparing character by character in
 * JavaScript (4 ms a call there, which was a tenth of what checking an edit cost).
 */
const CHUNK = 1024;

/** The common start and end of `before` and `after`: between them lies what a change replaced. */
export function commonEnds(before: string, after: string): CommonEnds {
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start + CHUNK <= limit && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK)) {
    start += CHUNK;
  }
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;
  const room = limit - start;
  let end = 0;
  while (
    end + CHUNK <= room &&
    before.slice(before.length - end - CHUNK, before.length - end) ===
      after.slice(after.length - end - CHUNK, after.length - end)
  ) {
    end += CHUNK;
  }
  while (
    end < room &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  ) {
    end += 1;
  }
  return { start, end };
}
