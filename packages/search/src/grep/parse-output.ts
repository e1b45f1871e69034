/** A file and its number of matches (count mode). */
export interface FileCount {
  path: string;
  count: number;
}

// Reads ripgrep's `--null` output (a NUL after every file name). Output cut short by a timeout may end mid-record:
// only complete records are returned. Content and files modes are parsed while ripgrep runs (ContentCollector,
// FileListCollector).

/** Count mode: `path\0COUNT\n` per file. */
export function parseCounts(output: string): FileCount[] {
  const counts: FileCount[] = [];
  let position = 0;
  for (;;) {
    const nul = output.indexOf('\0', position);
    if (nul < 0) break;
    const newline = output.indexOf('\n', nul);
    if (newline < 0) break;
    const count = Number(output.slice(nul + 1, newline));
    if (Number.isInteger(count)) counts.push({ path: output.slice(position, nul), count });
    position = newline + 1;
  }
  return counts;
}
