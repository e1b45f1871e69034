import { describe, expect, it } from 'vitest';
import { utf8Bytes } from './utf8-bytes.js';

describe('utf8Bytes', () => {
  it("gives Buffer.from's bytes for ASCII, other characters anywhere, pairs and lone surrogates", () => {
    const texts = [
      '',
      'plain ASCII\nlines\r\n',
      'x'.repeat(100_000),
      `${'a'.repeat(70_000)}\u00e9`,
      '\u00e9t\u00e9',
      '\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8',
      `emoji \ud83d\ude00 at the end: \ud83d\ude00`,
      'a lone \ud800 high and \udc00 low surrogate',
      '\u0000\u007f\u0080\u07ff\u0800\uffff',
    ];
    for (const text of texts) {
      expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });
});
