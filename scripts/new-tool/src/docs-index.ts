import type { ToolNames } from './names.js';

/** The contract's index, where every tool page is listed. */
export const DOCS_INDEX = 'docs/README.md';

/** A row with each cell padded to the width of its column in `header` (Markdown is not formatted by prettier here). */
function tableRow(cells: readonly string[], header: string): string {
  const widths = header
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.length - 2);
  return `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
}

/**
 * `docs/README.md` with a row for the new tool at the end of the table under `## Tools`. Throws when there is no such
 * table: the index changed shape and the generator must follow.
 */
export function addToolToDocsIndex(index: string, names: ToolNames): string {
  const lines = index.split('\n');
  const heading = lines.indexOf('## Tools');
  const header = lines.findIndex((line, at) => at > heading && line.startsWith('|'));
  if (heading < 0 || header < 0) throw new Error(`${DOCS_INDEX} has no table under "## Tools".`);
  let end = header;
  while (lines[end + 1]?.startsWith('|')) end += 1;
  const row = tableRow(
    [`[${names.toolName}](${names.docsPage})`, `\`${names.packageName}\``],
    lines[header] ?? '',
  );
  lines.splice(end + 1, 0, row);
  return lines.join('\n');
}
