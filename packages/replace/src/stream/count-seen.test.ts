import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { countSeenOccurrences } from './count-seen.js';
import { SCAN_CHUNK_BYTES } from './scan-occurrences.js';
import { DEFAULT_STREAM_TUNING } from './stream-tuning.js';
import { streamFormatOf } from './stream-format.js';

describe('countSeenOccurrences', () => {
  it('reads a \\r\\n cut between two chunks as one line break, and numbers lines across chunks', async ({
    workspace,
  }) => {
    const head = 'one\r\na\nb\r\n';
    // `a\r` ends the first chunk, `\nb` starts the second.
    const filler = 'x'.repeat(SCAN_CHUNK_BYTES - head.length - 'a\r'.length - 2) + '\r\n';
    const content = head + filler + 'a\r\nb\r\nlast a\rb';
    const file = await workspace.write('cut.txt', content);
    const handle = await workspace.fs.open(file, 'read');
    try {
      const size = content.length;
      const format = await streamFormatOf(handle, size);
      if ('reason' in format) throw new Error(format.reason);
      const seen = await countSeenOccurrences(
        { handle, size, format, path: file, diffBudgetMs: 200, tuning: DEFAULT_STREAM_TUNING },
        'a\nb',
        20,
      );
      expect(seen).toEqual({ count: 3, lines: [2, 5, 7] });
    } finally {
      await handle.close();
    }
  });
});
