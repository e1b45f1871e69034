import { createLineFeedCounter, type LineFeedCounter } from './line-feed-counter.js';

/**
 * The counter the last finished scan gave back, held weakly. The next scan whose buffers are the same size takes
 * it, so a host that reads one big file after another keeps one counter's memory (16 MiB for a bulk count) instead
 * of a new one per scan until the collector runs; when no scan comes, the collector frees it.
 */
let givenBack: WeakRef<LineFeedCounter> | undefined;

/**
 * A counter with `bufferCount` read buffers of `chunkBytes`: the one given back last when its buffers are that size,
 * else a new one (`undefined` without WebAssembly SIMD). Give it back with {@link giveBackLineFeedCounter}.
 */
export function takeLineFeedCounter(chunkBytes: number, bufferCount: number): LineFeedCounter | undefined {
  const kept = givenBack?.deref();
  if (kept && kept.buffers.length === bufferCount && kept.buffers[0]!.length === chunkBytes) {
    givenBack = undefined;
    return kept;
  }
  return createLineFeedCounter(chunkBytes, bufferCount);
}

/**
 * Gives a counter back for the next scan, once no read can still write into its buffers and nothing still reads from
 * them: what a scan reads next overwrites them.
 */
export function giveBackLineFeedCounter(counter: LineFeedCounter): void {
  givenBack = new WeakRef(counter);
}
