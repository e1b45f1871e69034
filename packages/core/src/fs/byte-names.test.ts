import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteNameDecoder } from './byte-name-decoder.js';
import { byteLengthOfName, bytesOfName, isByteName, nameFromBytes, nodePath } from './byte-names.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('names that are not UTF-8', () => {
  it('carry each byte that is no part of a character as U+DC80–U+DCFF, so no two read alike', () => {
    expect(nameFromBytes(latin1('inv\xff.txt'))).toBe('inv\udcff.txt');
    expect(nameFromBytes(latin1('inv\xfe.txt'))).toBe('inv\udcfe.txt');
    expect(nameFromBytes(latin1('inv\xef\xbf\xbd.txt'))).toBe('inv\ufffd.txt');
  });

  it('escape every byte of what strict UTF-8 refuses: cut, overlong, surrogate, beyond U+10FFFF', () => {
    expect(nameFromBytes(latin1('\xe2\x82a'))).toBe('\udce2\udc82a');
    expect(nameFromBytes(latin1('\xc0\x80'))).toBe('\udcc0\udc80');
    expect(nameFromBytes(latin1('\xed\xb3\xbf'))).toBe('\udced\udcb3\udcbf');
    expect(nameFromBytes(latin1('\xf4\x90\x80\x80'))).toBe('\udcf4\udc90\udc80\udc80');
    expect(nameFromBytes(Buffer.from('é😀', 'utf8'))).toBe('é😀');
  });

  it('read back as their bytes; a lone surrogate that is no byte escape names nothing', () => {
    expect(bytesOfName('inv\udcff.txt')).toEqual(latin1('inv\xff.txt'));
    expect(bytesOfName('😀\udc80')).toEqual(Buffer.concat([Buffer.from('😀'), latin1('\x80')]));
    expect(bytesOfName('a\ud800b')).toBeUndefined();
    expect(bytesOfName('a\udc7f')).toBeUndefined();
  });

  it('are as long as the bytes they stand for: an escape one byte, a lone surrogate that is none the three of U+FFFD', () => {
    expect(byteLengthOfName('inv\udcff.txt')).toBe(8);
    expect(byteLengthOfName('inv\ufffd.txt')).toBe(10);
    expect(byteLengthOfName('é\udc80')).toBe(3);
    expect(byteLengthOfName('a\ud800')).toBe(4);
    expect(byteLengthOfName('😀')).toBe(4);
  });

  it('are taken only in the one form a listing shows them', () => {
    expect(isByteName('inv\udcff.txt')).toBe(true);
    // The bytes of `é`, which is shown `é`.
    expect(isByteName('\udcc3\udca9')).toBe(false);
    expect(isByteName('\ud800')).toBe(false);
  });

  it('reach Node as bytes, and a well-formed path as the same string', () => {
    const path = '/tmp/inv.txt';
    expect(nodePath(path)).toBe(path);
    expect(nodePath('/tmp/inv\udcff.txt')).toEqual(latin1('/tmp/inv\xff.txt'));
    expect(() => nodePath('/tmp/\ud800')).toThrow(expect.objectContaining({ code: 'EINVAL' }));
  });

  it('round-trip any bytes, and decode alike whole or streamed in pieces', () => {
    const bytes = fc
      .uint8Array({ maxLength: 24 })
      .chain((array) =>
        fc.tuple(fc.constant(array), fc.array(fc.nat({ max: array.length }), { maxLength: 4 })),
      );
    fc.assert(
      fc.property(bytes, ([array, cuts]) => {
        const name = nameFromBytes(array);
        expect(bytesOfName(name)).toEqual(Buffer.from(array));
        expect(isByteName(name)).toBe(true);
        const decoder = new ByteNameDecoder();
        let streamed = '';
        let from = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          streamed += decoder.write(Buffer.from(array.subarray(from, cut)));
          from = cut;
        }
        streamed += decoder.write(Buffer.from(array.subarray(from))) + decoder.end();
        expect(streamed).toBe(name);
      }),
      { numRuns: 3_000 },
    );
  });

  it('decode valid UTF-8 as Node does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(nameFromBytes(Buffer.from(text, 'utf8'))).toBe(text);
      }),
    );
  });
});
