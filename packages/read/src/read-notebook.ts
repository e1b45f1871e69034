import type { OpenFile } from '@kimi-tools/core/fs';
import {
  decodeText,
  hashBytes,
  parseNotebook,
  readHandleUpTo,
  renderNotebook,
  shownLine,
  type ShownLine,
} from '@kimi-tools/core/toolkit';
import { MAX_BYTES, MAX_LINES, NOTEBOOK_MAX_BYTES } from './limits.js';
import type { LinesRead } from './read-lines.js';

/**
 * The notebook rendered as cells (docs/read-file.md#notebooks) and the hash of the bytes it was rendered from, or
 * undefined when the file is too large to render or is not a notebook (not JSON, no cells): then it is read as text.
 */
export async function renderNotebookFile(
  handle: OpenFile,
  size: number,
): Promise<{ lines: string[]; hash: string } | undefined> {
  if (size > NOTEBOOK_MAX_BYTES) return undefined;
  const bytes = await readHandleUpTo(handle, NOTEBOOK_MAX_BYTES + 1, size);
  if (bytes.length > NOTEBOOK_MAX_BYTES) return undefined;
  const decoded = decodeText(bytes);
  if (!decoded.ok) return undefined;
  const parsed = parseNotebook(decoded.decoded.text);
  if (!parsed.ok) return undefined;
  return { lines: renderNotebook(parsed.notebook), hash: hashBytes(bytes) };
}

/** A page of rendered lines under the same limits as a file's lines: forward from `lineOffset`, or its last lines. */
export function pageRenderedLines(
  rendered: readonly string[],
  lineOffset: number,
  nLines: number,
  hash: string,
): LinesRead {
  const totalLines = rendered.length;
  const show = (at: number): ShownLine => shownLine(at + 1, rendered[at]!, at + 1 < totalLines, false);
  const lines: ShownLine[] = [];
  let bytes = 0;
  if (lineOffset > 0) {
    let maxLinesReached = false;
    let maxBytesReached = false;
    // The stops of readForward, in its order: n_lines, then MAX_LINES, then MAX_BYTES.
    for (let at = lineOffset - 1; at < totalLines; at += 1) {
      const line = show(at);
      lines.push(line);
      bytes += line.bytes;
      if (lines.length >= nLines) break;
      if (lines.length >= MAX_LINES) {
        maxLinesReached = true;
        break;
      }
      if (bytes >= MAX_BYTES) {
        maxBytesReached = true;
        break;
      }
    }
    return { lines, totalLines, hash, binary: false, notUtf8: false, maxLinesReached, maxBytesReached };
  }
  const windowStart = Math.max(0, totalLines + lineOffset);
  const windowLength = totalLines - windowStart;
  const wanted = Math.min(nLines, MAX_LINES, windowLength);
  for (let at = windowStart; at < windowStart + wanted; at += 1) lines.push(show(at));
  bytes = lines.reduce((sum, line) => sum + line.bytes, 0);
  let first = 0;
  while (bytes > MAX_BYTES && first < lines.length) bytes -= lines[first++]!.bytes;
  return {
    lines: lines.slice(first),
    totalLines,
    hash,
    binary: false,
    notUtf8: false,
    maxLinesReached: nLines > MAX_LINES && windowLength > MAX_LINES,
    maxBytesReached: first > 0,
  };
}
