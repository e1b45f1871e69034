/**
 * Component-wise order of `/`-separated relative paths: `a/x` < `a-b/x`, `src/main/app.py` < `src/main.py`.
 * Equivalent to comparing with `/` ranked below every other character, which is what the sort key does.
 */
export function sortPathsComponentWise(paths: readonly string[]): string[] {
  return sortByPathComponentWise(paths, (path) => path);
}

/**
 * `items` in the component-wise order of their paths (see {@link sortPathsComponentWise}): each key is made once and
 * compared natively, rather than both paths walked a character at a time by every comparison of the sort.
 */
export function sortByPathComponentWise<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  const keyed = items.map((value) => ({ key: componentWiseKey(pathOf(value)), value }));
  // One comparison: two equal keys are two equal paths, whichever comes first.
  keyed.sort((a, b) => (a.key < b.key ? -1 : 1));
  return keyed.map((entry) => entry.value);
}

/**
 * A path's sort key: compared natively (`<`), keys are in the component-wise order of their paths (`/` ranked below
 * every other character). Made by `split` and `join`, which give a flat string: `replaceAll` gives one V8 keeps in
 * pieces, and every comparison of two such keys went through the runtime (sorting Grep's 834 files of the bench tree
 * cost 41 M instructions, `pnpm bench grep`).
 */
export function componentWiseKey(path: string): string {
  return path.split('/').join('\u0000');
}
