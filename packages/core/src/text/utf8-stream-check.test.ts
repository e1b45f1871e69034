import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUtf8StreamCheck } from './utf8-stream-check.js';

/** The verdict of a strict streaming decoder fed the same chunks. */
function decoderVerdict(chunks: readonly Uint8Array[]): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const chunk of chunks) decoder.decode(chunk, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** `tellAscii`: chunks without a byte above 127 are pushed as known ASCII, as a line scan that surveyed them does. */
function checkVerdict(chunks: readonly Uint8Array[], tellAscii = false): boolean {
  const check = createUtf8StreamCheck();
  let pushed = true;
  for (const chunk of chunks) {
    const ascii = tellAscii && chunk.every((byte) => byte < 0x80);
    pushed = check.push(chunk, ascii) && pushed;
  }
  const verdict = check.end();
  expect(pushed || !verdict).toBe(true);
  return verdict;
}

/** `bytes` cut at the given points (sorted, duplicates give empty chunks). */
function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [0, ...cuts.map((cut) => cut % (bytes.length + 1)).sort((a, b) => a - b), bytes.length];
  return points.slice(1).map((end, index) => bytes.subarray(points[index]!, end));
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('createUtf8StreamCheck', () => {
  it('accepts characters of every length cut anywhere between chunks', () => {
    const bytes = encode('a\u00e9\u20ac\u{1f600}z\n\u0800\uffff\u{10ffff}\u{10000}');
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second++) {
        expect(checkVerdict(cutAt(bytes, [first, second]))).toBe(true);
      }
    }
  });

  it('keeps the start of a cut character even when the caller reuses its buffer', () => {
    const check = createUtf8StreamCheck();
    const buffer = Buffer.from('ab\u20ac');
    expect(check.push(buffer.subarray(0, 3))).toBe(true);
    buffer.fill(0x41); // the next read lands in the same buffer
    expect(check.push(Buffer.from([0x82, 0xac, 0x0a]))).toBe(true);
    expect(check.end()).toBe(true);
  });

  it('refuses a character cut off by the end, a stray continuation byte, overlong forms and surrogates', () => {
    for (const bad of [
      [0xe2, 0x82],
      [0x41, 0x80],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xe2, 0x41, 0x82],
      [0xff],
    ]) {
      const bytes = Uint8Array.from(bad);
      for (let cut = 0; cut <= bytes.length; cut++) expect(checkVerdict(cutAt(bytes, [cut]))).toBe(false);
    }
  });

  it('takes the word of the caller that a chunk is ASCII, and still refuses a character left cut before it', () => {
    const euro = encode('\u20ac');
    const cutEuro = (ascii: Uint8Array) => {
      const check = createUtf8StreamCheck();
      expect(check.push(euro.subarray(0, 2))).toBe(true);
      return check.push(ascii, true) && check.end();
    };
    expect(cutEuro(encode('abc'))).toBe(false);
    const waiting = createUtf8StreamCheck();
    expect(waiting.push(euro.subarray(0, 1))).toBe(true);
    expect(waiting.push(new Uint8Array(0), true)).toBe(true); // an empty chunk changes nothing
    expect(waiting.push(euro.subarray(1))).toBe(true);
    expect(waiting.push(encode('plain\n'), true)).toBe(true);
    expect(waiting.end()).toBe(true);
  });

  it('gives the verdict of a strict streaming decoder on any bytes in any chunks', () => {
    // Mostly valid text with a few bytes changed, so both verdicts come up often.
    const text = fc.string({ unit: 'binary', maxLength: 40 }).map(encode);
    const damaged = fc
      .tuple(text, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 2 }))
      .map(([bytes, changes]) => {
        const copy = Uint8Array.from(bytes);
        for (const [at, byte] of changes) if (copy.length > 0) copy[at % copy.length] = byte;
        return copy;
      });
    fc.assert(
      fc.property(damaged, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const chunks = cutAt(bytes, cuts);
        expect(checkVerdict(chunks)).toBe(decoderVerdict(chunks));
        expect(checkVerdict(chunks, true)).toBe(decoderVerdict(chunks));
      }),
      { numRuns: 1000 },
    );
  });
});
