import type { TextReplacement } from '@kimi-tools/core/toolkit';
import type { PatchChunk } from '../parse/patch-types.js';
import type { FileLines } from './file-lines.js';
import type { ChunkPlace } from './find-chunks.js';

/**
 * The replacements of the file's `\n`-normalised text that put each chunk's new lines where its old lines were
 * placed. A context line is written as the file has it: a chunk matched after normalising (whitespace, typographic
 * punctuation) changes only the lines it adds and removes. The file's final line break is kept as it was, unless a
 * unified diff's `\ No newline at end of file` marks say that the chunk reaching the end changes it.
 */
export function chunkReplacements(
  file: FileLines,
  chunks: readonly PatchChunk[],
  places: readonly ChunkPlace[],
): TextReplacement[] {
  const total = file.lines.length;
  return chunks.map((chunk, index) => {
    const place = places[index]!;
    const reachesEnd = place.start + place.count === total;
    const start = file.starts[place.start]!;
    const end = file.starts[place.start + place.count]!;
    let endsWithNewline = file.endsWithNewline;
    if (reachesEnd && chunk.newEndsWithoutNewline !== undefined)
      endsWithNewline = !chunk.newEndsWithoutNewline;
    else if (reachesEnd && chunk.oldEndsWithoutNewline === true) endsWithNewline = true;
    let text = chunk.newLines
      .map((line, at) => {
        const kept = chunk.newFromOld[at]!;
        return kept < 0 ? line : file.lines[place.start + kept]!;
      })
      .join('\n');
    if (!reachesEnd) {
      if (chunk.newLines.length > 0) text += '\n';
      return { start, end, text };
    }
    // At the end: the text after the last kept line break, whose ending is the file's (or the patch's).
    if (place.count === 0 && total > 0 && !file.endsWithNewline) {
      // Lines added after a last line that has no line break: it gets one, and the new last line takes its place.
      return {
        start: end,
        end,
        text: chunk.newLines.length > 0 ? `\n${text}${endsWithNewline ? '\n' : ''}` : '',
      };
    }
    if (chunk.newLines.length > 0 && endsWithNewline) text += '\n';
    // Old lines removed up to the end of a file without a last line break leave the line break before them last.
    if (chunk.newLines.length === 0 && start > 0 && !endsWithNewline)
      return { start: start - 1, end, text: '' };
    return { start, end, text };
  });
}
