import { describe, expect, it } from 'vitest';
import { rewindFailedError } from './messages.js';

// docs/checkpoints.md: every path of Rewind's lines is shown quoted when it holds one of their separators.
describe('the files a failed rewind could not put back', () => {
  it('are shown as every other path, so the list splits at its `, `', () => {
    expect(rewindFailedError('EIO: i/o error', ['a, b', 'c\nd', 'e.txt']).message).toBe(
      "Writing the rewind failed: EIO: i/o error. These files could not be put back and may hold the checkpoint's " +
        'content: "a, b", "c\\nd", e.txt.',
    );
  });
});
