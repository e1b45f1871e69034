import { describe, expect, it } from 'vitest';
import { giveBackLineFeedCounter, takeLineFeedCounter } from './reused-line-feed-counter.js';

describe('takeLineFeedCounter', () => {
  it('hands the counter given back to the next taker whose buffers are that size, and to one taker only', () => {
    const first = takeLineFeedCounter(4096, 3)!;
    expect(first.buffers.map((buffer) => buffer.length)).toEqual([4096, 4096, 4096]);
    // Not given back yet: a second taker gets its own.
    const second = takeLineFeedCounter(4096, 3)!;
    expect(second).not.toBe(first);
    giveBackLineFeedCounter(first);
    // Other sizes make their own and leave it for a taker that fits.
    expect(takeLineFeedCounter(8192, 3)).not.toBe(first);
    expect(takeLineFeedCounter(4096, 4)).not.toBe(first);
    expect(takeLineFeedCounter(4096, 3)).toBe(first);
    expect(takeLineFeedCounter(4096, 3)).not.toBe(first);
  });
});
