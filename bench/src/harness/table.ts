import type { Spread } from './stats.js';

/** Renders a Markdown table (it reads as plain text too, and pastes into an issue as it is). */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  // A `|` inside a cell (a shell pipeline) would end the cell.
  const cells = rows.map((row) => row.map((cell) => cell.replaceAll('|', '\\|')));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]): string =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

/** `12.3 ms` (one decimal below 100 ms, none above), or `n/a`. */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return 'n/a';
  return `${ms < 100 ? ms.toFixed(1) : Math.round(ms).toString()} ms`;
}

/** `412 ms (398–440)`: the median with the smallest and largest sample. */
export function formatSpreadMs(spread: Spread | undefined): string {
  if (spread === undefined) return 'n/a';
  const bare = (ms: number) => formatMs(ms).replace(' ms', '');
  return `${formatMs(spread.median)} (${bare(spread.min)}–${bare(spread.max)})`;
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
