/** Renders rows as a plain-text table with a header line; numbers-looking cells are right-aligned. */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const alignRight = (cell: string): boolean => /^[\d.,]+\s?(ms|MB|×)?$/.test(cell) || cell === 'n/a';
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        alignRight(cell) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** `12.3 ms` (one decimal below 100 ms, none above). */
export function formatMs(ms: number): string {
  return `${ms < 100 ? ms.toFixed(1) : Math.round(ms).toString()} ms`;
}

/** `45.6 MB` (MiB, one decimal), or `n/a`. */
export function formatMegabytes(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `ours / reference` as `0.42×`, or `n/a` when either is missing. */
export function formatRatio(ours: number | undefined, reference: number | undefined): string {
  if (ours === undefined || reference === undefined || reference === 0) return 'n/a';
  return `${(ours / reference).toFixed(2)}×`;
}
