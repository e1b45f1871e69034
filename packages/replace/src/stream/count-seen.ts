import { createStreamDecoder, normalizeLineEndings } from '@kimi-tools/core/toolkit';
import type { StreamedFile } from './plan-streamed-edit.js';

/** Occurrences of a text in the file as the model sees it: how many, and the lines of the first `keep`. */
export interface SeenOccurrences {
  count: number;
  lines: number[];
}

function countBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) breaks++;
  return breaks;
}

/**
 * Counts `old` (`\n` line breaks) in the file's text with every `\r\n` and lone `\r` read as `\n`, overlapping
 * occurrences too, as the in-memory path counts them to decide an edit is unique in a file of mixed line endings
 * (a byte search cannot: `a\nb` and `a\r\nb` are both `a\nb` to the model). Decodes the whole file chunk by chunk,
 * so it runs only for such a file and an `old` with a line break.
 */
export async function countSeenOccurrences(
  file: StreamedFile,
  old: string,
  keep: number,
): Promise<SeenOccurrences> {
  const decoder = createStreamDecoder({ encoding: file.format.format.encoding, bom: false });
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(file.tuning.chunkBytes, file.size)));
  const result: SeenOccurrences = { count: 0, lines: [] };
  // The end of the text so far that may begin an occurrence, and the line it starts on.
  let tail = '';
  let tailLine = 1;
  // A `\r` ending a piece waits for the next one: with a `\n` after it, it is one line break.
  let heldCr = '';
  const take = (raw: string, last: boolean) => {
    raw = heldCr + raw;
    heldCr = !last && raw.endsWith('\r') ? '\r' : '';
    const text = tail + normalizeLineEndings(heldCr ? raw.slice(0, -1) : raw);
    for (let at = text.indexOf(old); at !== -1; at = text.indexOf(old, at + 1)) {
      result.count++;
      if (result.lines.length < keep) result.lines.push(tailLine + countBreaks(text, 0, at));
    }
    const keepFrom = Math.max(0, text.length - (old.length - 1));
    tailLine += countBreaks(text, 0, keepFrom);
    tail = text.slice(keepFrom);
  };
  for (let at = file.format.start; at < file.size;) {
    file.signal?.throwIfAborted();
    const { bytesRead } = await file.handle.read(buffer, 0, Math.min(buffer.length, file.size - at), at);
    if (bytesRead === 0) throw new Error(`The file ended at byte ${at} while it was edited.`);
    take(decoder.write(buffer.subarray(0, bytesRead)), false);
    at += bytesRead;
  }
  take(decoder.end(), true);
  return result;
}
