import { describe, expect, it } from 'vitest';
import { createTextStreamCheck } from './text-stream-check.js';

/** The verdict on `chunks` pushed in order, the last one as the end. */
function verdict(encoding: string, chunks: readonly Uint8Array[]): boolean {
  const check = createTextStreamCheck({ encoding });
  let valid = true;
  chunks.forEach((chunk, index) => (valid = check.push(chunk, index === chunks.length - 1)));
  return valid;
}

describe('createTextStreamCheck', () => {
  it('takes UTF-8 with a character cut between chunks, and refuses a NUL or a character cut off by the end', () => {
    const text = Buffer.from('añb');
    expect(verdict('utf-8', [text.subarray(0, 2), text.subarray(2)])).toBe(true);
    expect(verdict('utf-8', [Buffer.from('a\0b')])).toBe(false);
    expect(verdict('utf-8', [text.subarray(0, 2)])).toBe(false);
  });

  it('refuses a lone surrogate and a NUL in UTF-16', () => {
    expect(verdict('utf-16le', [Buffer.from('ab', 'utf16le')])).toBe(true);
    expect(verdict('utf-16le', [Buffer.from([0x3d, 0xd8, 0x61, 0x00])])).toBe(false);
    expect(verdict('utf-16be', [Buffer.from([0x00, 0x61, 0x00, 0x00])])).toBe(false);
  });

  it('refuses, in a single-byte encoding, the bytes it cannot decode exactly', () => {
    expect(verdict('windows-1252', [Buffer.from([0x63, 0x61, 0x66, 0xe9])])).toBe(true);
    // 0x81 is unassigned in windows-1252: decoded, it would not encode back.
    expect(verdict('windows-1252', [Buffer.from([0x61]), Buffer.from([0x81])])).toBe(false);
    expect(verdict('iso-8859-1', [Buffer.from([0x61, 0x00])])).toBe(false);
  });
});
