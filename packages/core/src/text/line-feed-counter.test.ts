import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineFeedCounter } from './line-feed-counter.js';

function countInJs(bytes: Uint8Array, from: number, to: number): number {
  let found = 0;
  for (let index = from; index < to; index++) if (bytes[index] === 10) found++;
  return found;
}

describe('createLineFeedCounter', () => {
  it('counts line feeds in any range of either buffer, aligned or not', () => {
    const counter = createLineFeedCounter(4096);
    expect(counter).toBeDefined();
    const [first, second] = counter!.buffers as [Buffer, Buffer];
    // Bytes of any value, about one in seven of them made a line feed.
    const block = fc.uint8Array({ minLength: 4096, maxLength: 4096 });
    const content = fc
      .tuple(block, block)
      .map(([bytes, dice]) => bytes.map((byte, index) => (dice[index]! % 7 === 0 ? 10 : byte)));
    const range = fc
      .tuple(fc.integer({ min: 0, max: 4096 }), fc.integer({ min: 0, max: 4096 }))
      .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(content, content, range, (firstBytes, secondBytes, anyRange) => {
        first.set(firstBytes);
        second.set(secondBytes);
        for (const buffer of [first, second]) {
          for (const [from, to] of [
            [0, 4096],
            [1, 4095],
            [63, 64],
            [17, 2000],
            [0, 0],
            [100, 163],
            anyRange,
          ] as const) {
            expect(counter!.countLineFeeds(buffer, from, to)).toBe(countInJs(buffer, from, to));
          }
        }
      }),
    );
  });

  it('counts any byte value and CRLF pairs', () => {
    const counter = createLineFeedCounter(4096)!;
    const [first] = counter.buffers as [Buffer];
    const pattern = 'ab\r\ncd\re\nf\r\r\n';
    for (let index = 0; index < first.length; index++)
      first[index] = pattern.charCodeAt(index % pattern.length);
    const inJs = (from: number, to: number, wanted: (index: number) => boolean) => {
      let found = 0;
      for (let index = from; index < to; index++) if (wanted(index)) found++;
      return found;
    };
    for (const [from, to] of [
      [0, 4096],
      [3, 4000],
      [15, 16],
      [1, 1],
    ] as const) {
      expect(counter.countByte(first, from, to, 13)).toBe(inJs(from, to, (index) => first[index] === 13));
      expect(counter.countCrLf(first, from, to)).toBe(
        inJs(from, to, (index) => first[index] === 13 && first[index + 1] === 10),
      );
    }
  });

  it('surveys a whole buffer in one pass: line feeds, and whether a \\r, a 00 or a byte above 127 is in it', () => {
    const counter = createLineFeedCounter(8192)!;
    const [, second] = counter.buffers as [Buffer, Buffer];
    // Past 63 blocks of 64 bytes, where the per-lane tallies are summed.
    const sizes = fc.integer({ min: 0, max: 8192 });
    // Mostly letters and line feeds, now and then a \r, a 00 or a high byte anywhere (SIMD blocks or the tail).
    const bytes = fc.array(fc.constantFrom(97, 97, 97, 10, 10), { minLength: 8192, maxLength: 8192 });
    const rare = fc.array(fc.tuple(fc.nat(), fc.constantFrom(13, 0, 128, 200, 255)), { maxLength: 2 });
    fc.assert(
      fc.property(sizes, bytes, rare, (size, letters, specials) => {
        const content: number[] = [...letters];
        for (const [at, byte] of specials) content[at % 8192] = byte;
        second.set(content);
        const chunk = second.subarray(0, size);
        expect(counter.surveyChunk(chunk)).toEqual({
          lineFeeds: chunk.filter((byte) => byte === 10).length,
          hasCR: chunk.includes(13),
          hasNul: chunk.includes(0),
          ascii: chunk.every((byte) => byte < 128),
        });
      }),
    );
    // Every byte a line feed: each lane's tally at its largest, in every run of blocks.
    second.fill(10);
    expect(counter.surveyChunk(second)).toEqual({
      lineFeeds: 8192,
      hasCR: false,
      hasNul: false,
      ascii: true,
    });
    // The flags of one survey never leak into the next.
    second.fill(13, 0, 64);
    expect(counter.surveyChunk(second.subarray(0, 64))?.hasCR).toBe(true);
    second.fill(97, 0, 64);
    expect(counter.surveyChunk(second.subarray(0, 64))).toEqual({
      lineFeeds: 0,
      hasCR: false,
      hasNul: false,
      ascii: true,
    });
  });

  it('makes as many read buffers as asked, side by side in its memory', () => {
    const counter = createLineFeedCounter(4096, 3)!;
    expect(counter.buffers.map((buffer) => [buffer.byteOffset, buffer.length])).toEqual([
      [0, 4096],
      [4096, 4096],
      [8192, 4096],
    ]);
    const third = counter.buffers[2]!;
    third.fill(10);
    expect(counter.surveyChunk(third)?.lineFeeds).toBe(4096);
    expect(counter.countLineFeeds(third, 1, 4095)).toBe(4094);
  });

  it('does not count in buffers that are not its own', () => {
    const counter = createLineFeedCounter(1024)!;
    const foreign = Buffer.from('a\r\nb\n');
    expect(counter.countLineFeeds(foreign, 0, 4)).toBeUndefined();
    expect(counter.countByte(foreign, 0, 4, 13)).toBeUndefined();
    expect(counter.countCrLf(foreign, 0, 4)).toBeUndefined();
    expect(counter.surveyChunk(foreign)).toBeUndefined();
  });
});
