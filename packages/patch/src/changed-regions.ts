import {
  lineSnippet,
  SNIPPET_CONTEXT_LINES,
  SNIPPET_MAX_BYTES,
  withFinalLineBreak,
  type LineSnippet,
  type LineSpan,
} from '@kimi-tools/core/toolkit';

/** A file the result shows: its name as messages show it, its new text (`\n`-normalised), where its changes stand. */
export interface ChangedFile {
  name: string;
  text: string;
  spans: readonly LineSpan[];
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The last line of a file's block when its lines do not all fit its share. */
function cutNote(unshown: { from: number; to: number }): string {
  return `(lines ${unshown.from}-${unshown.to} not shown)\n`;
}

/** The last line of the output when some files get no block at all. */
function unshownFilesLine(count: number): string {
  return `(${count} more ${count === 1 ? 'file' : 'files'} not shown)\n`;
}

/**
 * A file's changed lines as ReadFile shows them, ended by a line break when more of the output `follows` (the file's
 * last line may have none): within `maxBytes` with that break, else cut.
 */
function linesOf(file: ChangedFile, maxBytes: number, follows: boolean): LineSnippet {
  const lines = lineSnippet(file.text, file.spans, { maxBytes });
  if (!follows || lines.unshown !== undefined) return lines;
  const ended = withFinalLineBreak(lines.output);
  if (bytes(ended) <= maxBytes) return { output: ended };
  // Shown whole only without the break it now needs: one byte less cuts it.
  return lineSnippet(file.text, file.spans, { maxBytes: maxBytes - 1 });
}

/**
 * The fewest bytes a file's block can take, or more when that fits every share anyway (`smallestShare`): its `{name}:`
 * line and the longest cut note it can have (no line is numbered past its last change and the context after it); only
 * where that does not fit, the exact fewest, with all its lines instead when they take no more than the note.
 */
function fewestBytes(file: ChangedFile, smallestShare: number, follows: boolean): number {
  const last = Math.max(1, ...file.spans.map((span) => span.from + span.count - 1 + SNIPPET_CONTEXT_LINES));
  const header = bytes(`${file.name}:\n`);
  const note = bytes(cutNote({ from: last, to: last }));
  if (header + note <= smallestShare) return header + note;
  const small = linesOf(file, note, follows);
  return header + (small.unshown === undefined ? bytes(small.output) : note);
}

/**
 * The equal share of `maxBytes` each of the first `shown` of `total` files gets, once the blank lines between the
 * blocks and the line counting the files left out are taken off.
 */
function shareOf(shown: number, total: number, maxBytes: number): number {
  const tail = shown < total ? bytes(unshownFilesLine(total - shown)) : 0;
  const blankLines = shown - (tail > 0 ? 0 : 1);
  return Math.floor((maxBytes - tail - blankLines) / shown);
}

/**
 * A file's `{name}:` line and its changed lines within `share` bytes, ending with its cut note when some did not fit,
 * and with a line break when more of the output `follows`.
 */
function block(file: ChangedFile, share: number, follows: boolean): string {
  const header = `${file.name}:\n`;
  const room = share - bytes(header);
  const whole = linesOf(file, room, follows);
  if (whole.unshown === undefined) return header + whole.output;
  // Fewer lines never widen the note: the lines left out start no later and end at the same line.
  const cut = lineSnippet(file.text, file.spans, { maxBytes: room - bytes(cutNote(whole.unshown)) });
  return header + cut.output + cutNote(cut.unshown ?? whole.unshown);
}

/**
 * The changed lines of each file, numbered as ReadFile numbers them, in at most `maxBytes` of UTF-8
 * (docs/apply-patch.md#what-the-model-reads): files parted by a blank line, each within an equal share that counts its
 * `{name}:` line and its cut note. When the shares cannot each hold their file's fewest bytes, the most files from the
 * first whose shares can are shown, and a last line counts the others (the message names every file).
 */
export function changedRegions(files: readonly ChangedFile[], maxBytes = SNIPPET_MAX_BYTES): string {
  if (files.length === 0) return '';
  const shares = files.map((_, index) => shareOf(index + 1, files.length, maxBytes));
  const smallestShare = shares.reduce((smallest, share) => Math.min(smallest, share));
  let widest = 0;
  // The most any of the first n files needs, at index n - 1. Every file but the last is followed: by the next file's
  // block, or by the line counting the files left out.
  const widestOfFirst = files.map(
    (file, index) => (widest = Math.max(widest, fewestBytes(file, smallestShare, index < files.length - 1))),
  );
  let shown = files.length;
  while (shown > 0 && widestOfFirst[shown - 1]! > shares[shown - 1]!) shown--;
  const blocks = files
    .slice(0, shown)
    .map((file, index) => block(file, shares[shown - 1]!, index < files.length - 1));
  if (shown < files.length) blocks.push(unshownFilesLine(files.length - shown));
  return blocks.join('\n');
}
