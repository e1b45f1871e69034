/**
 * Tabs versus spaces in indentation (docs/str-replace-file.md#matching): `old` indented with spaces for a tab-indented
 * file, or with tabs for a space-indented one, is rewritten in the file's style with one consistent width, and `new`
 * with it.
 */

/** How leading indentation is rewritten: `tabs` turns each `width` spaces into a tab, `spaces` each tab into `width` spaces. */
export interface IndentRewrite {
  to: 'tabs' | 'spaces';
  width: number;
}

const LEADING = /^[ \t]*/;

function leading(line: string): string {
  return LEADING.exec(line)?.[0] ?? '';
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The indentation unit of space counts: 4 or 2 when their common divisor allows, else undefined (odd alignment). */
function unitOf(counts: readonly number[]): number | undefined {
  const divisor = counts.filter((count) => count > 0).reduce((all, count) => gcd(all, count), 0);
  if (divisor === 0) return undefined;
  if (divisor % 4 === 0) return 4;
  if (divisor % 2 === 0) return 2;
  return undefined;
}

function spaceCounts(lines: readonly string[]): number[] {
  return lines
    .map(leading)
    .filter((indent) => /^ +$/.test(indent))
    .map((indent) => indent.length);
}

/** Widths tried in turn when the text itself does not settle one: 4 first, the width models write most. */
const WIDTHS = [4, 2, 8];

function widthsFrom(unit: number | undefined): number[] {
  return [...new Set([...(unit === undefined ? [] : [unit]), ...WIDTHS])];
}

/**
 * The rewrites, to try in order, that put `old` (and `new`) in `content`'s style, when `old` indents with spaces and
 * the file with tabs, or `old` with tabs and the file with spaces; none when there is nothing to rewrite.
 */
export function indentRewritesFor(content: string, old: string, replacement: string): IndentRewrite[] {
  const oldLines = old.split('\n');
  const oldIndents = oldLines.map(leading).filter((indent) => indent.length > 0);
  if (oldIndents.length === 0) return [];
  const contentIndents = content.match(/^[ \t]+(?=\S)/gm) ?? [];
  const fileTabs = contentIndents.some((indent) => indent.startsWith('\t'));
  const fileSpaces = contentIndents.some((indent) => indent.startsWith(' '));
  if (oldIndents.every((indent) => !indent.includes('\t')) && fileTabs) {
    // The model's own width, read from the indentation of old and new: one level per tab.
    const unit = unitOf([...spaceCounts(oldLines), ...spaceCounts(replacement.split('\n'))]);
    return widthsFrom(unit).map((width) => ({ to: 'tabs', width }));
  }
  if (oldIndents.some((indent) => indent.startsWith('\t')) && fileSpaces) {
    const unit = unitOf(
      contentIndents.filter((indent) => /^ +$/.test(indent)).map((indent) => indent.length),
    );
    return widthsFrom(unit).map((width) => ({ to: 'spaces', width }));
  }
  return [];
}

/** `text` (`\n`-normalised) with each line's leading indentation rewritten; spaces that make no whole tab stay. */
export function rewriteIndentation(text: string, rewrite: IndentRewrite): string {
  return text
    .split('\n')
    .map((line) => {
      const indent = leading(line);
      if (indent.length === 0) return line;
      let rewritten: string;
      if (rewrite.to === 'spaces') {
        rewritten = indent.replace(/\t/g, ' '.repeat(rewrite.width));
      } else {
        const spaces = /^ +/.exec(indent)?.[0].length ?? 0;
        rewritten =
          '\t'.repeat(Math.floor(spaces / rewrite.width)) +
          ' '.repeat(spaces % rewrite.width) +
          indent.slice(spaces);
      }
      return rewritten + line.slice(indent.length);
    })
    .join('\n');
}
