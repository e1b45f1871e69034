import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { TextEncoding } from './codec-types.js';
import { createStreamDecoder } from './codec-stream.js';
import { decodeText } from './codec.js';

function decodeInChunks(bytes: Uint8Array, encoding: TextEncoding, chunkSize: number): string {
  const decoder = createStreamDecoder(encoding);
  let text = '';
  for (let at = 0; at < bytes.length; at += chunkSize)
    text += decoder.write(bytes.subarray(at, at + chunkSize));
  return text + decoder.end();
}

const samples: { name: string; bytes: Buffer }[] = [
  { name: 'UTF-8 multibyte', bytes: Buffer.from('aé中😀\r\nend €\n') },
  {
    name: 'UTF-8 with BOM',
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom 中文 😀\n')]),
  },
  {
    name: 'UTF-16 LE with BOM',
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('utf16 中文 😀\r\n', 'utf16le')]),
  },
  {
    name: 'UTF-16 BE with BOM',
    bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('utf16 中文 😀\n', 'utf16le').swap16()]),
  },
  { name: 'GBK', bytes: iconv.encode('你好，世界！这是一个测试文件。\r\n第二行：中文内容。\n', 'gbk') },
  { name: 'Shift_JIS', bytes: iconv.encode('こんにちは世界。これはテストです。\nカタカナ\n', 'shift_jis') },
];

describe('createStreamDecoder', () => {
  for (const { name, bytes } of samples) {
    it(`${name}: 1-byte and 3-byte chunks decode like the whole file`, () => {
      const result = decodeText(bytes);
      if (!result.ok) throw new Error(result.reason);
      const { format, raw } = result.decoded;
      expect(decodeInChunks(bytes, format, 1)).toBe(raw);
      expect(decodeInChunks(bytes, format, 3)).toBe(raw);
      expect(decodeInChunks(bytes, format, bytes.length)).toBe(raw);
    });
  }

  it('emits a split character only once it is complete', () => {
    const decoder = createStreamDecoder({ encoding: 'utf-8', bom: false });
    const euro = Buffer.from('€');
    expect(decoder.write(euro.subarray(0, 1))).toBe('');
    expect(decoder.write(euro.subarray(1, 2))).toBe('');
    expect(decoder.write(euro.subarray(2))).toBe('€');
    expect(decoder.end()).toBe('');
  });
});
