import { MAX_BYTES, MAX_LINES } from './limits.js';
import type { LinesRead } from './read-lines.js';

/** The exact result message of docs/read-file.md. `start` is the line the read started at (the first shown line in tail mode). */
export function readResultMessage(read: LinesRead, start: number, nLines: number): string {
  const count = read.lines.length;
  let message =
    count > 0 ? `${count} lines read from file starting from line ${start}.` : 'No lines read from file.';
  message += ` Total lines in file: ${read.totalLines}.`;
  if (read.maxLinesReached) message += ` Max ${MAX_LINES} lines reached.`;
  else if (read.maxBytesReached) message += ` Max ${MAX_BYTES} bytes reached.`;
  else if (count < nLines) message += ' End of file reached.';
  const truncated = read.lines.filter((line) => line.truncated).map((line) => line.number);
  if (truncated.length > 0) message += ` Lines [${truncated.join(', ')}] were truncated.`;
  return message;
}
