/**
 * Start offsets of the occurrences of `needle` in `haystack`, left to right: non-overlapping (what `replace_all`
 * replaces), or also overlapping ones (what makes an edit ambiguous: `end\nend` occurs twice in `end\nend\nend`).
 */
export function* iterateOccurrences(
  haystack: string,
  needle: string,
  overlapping = false,
): Generator<number> {
  if (needle.length === 0) return;
  const step = overlapping ? 1 : needle.length;
  let from = 0;
  for (;;) {
    const index = haystack.indexOf(needle, from);
    if (index === -1) return;
    yield index;
    from = index + step;
  }
}
