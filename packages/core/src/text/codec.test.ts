import fs from 'node:fs/promises';
import iconv from 'iconv-lite';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { DecodedText } from './codec-types.js';
import { UnencodableTextError, canEncodeText, decodeText, detectTextEncoding, encodeText } from './codec.js';
import { encodeChange } from './encode-change.js';

/** The kit's test, with `roundTripFile`: writes `bytes` to a real file and reads them back, as the tools do. */
const it = test.extend('roundTripFile', ({ workspace }) => async (name: string, bytes: Uint8Array) => {
  const file = await workspace.write(name, bytes);
  return fs.readFile(file);
});

function decodeOk(bytes: Uint8Array): DecodedText {
  const result = decodeText(bytes);
  if (!result.ok) throw new Error(`expected text, got ${result.reason}`);
  return result.decoded;
}

interface EditCase {
  name: string;
  encoding: string;
  bom?: readonly number[];
  /** Lines with their own endings; the line at `edit` is replaced by `replacement`. */
  lines: readonly (readonly [string, string])[];
  edit: number;
  replacement: string;
  expectedEncoding: string;
  expectedLineEnding: string;
}

function encodeLine(text: string, encoding: string): Buffer {
  if (encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  return iconv.encode(text, encoding);
}

const cases: EditCase[] = [
  {
    name: 'CRLF UTF-8',
    encoding: 'utf-8',
    lines: [
      ['first', '\r\n'],
      ['second', '\r\n'],
      ['third', '\r\n'],
    ],
    edit: 1,
    replacement: 'SECOND',
    expectedEncoding: 'utf-8',
    expectedLineEnding: '\r\n',
  },
  {
    name: 'mixed endings without a final newline',
    encoding: 'utf-8',
    lines: [
      ['crlf', '\r\n'],
      ['lf', '\n'],
      ['cr', '\r'],
      ['crlf again', '\r\n'],
      ['last', ''],
    ],
    edit: 2,
    replacement: 'CR edited',
    expectedEncoding: 'utf-8',
    expectedLineEnding: '\r\n',
  },
  {
    name: 'lone CR (classic Mac)',
    encoding: 'utf-8',
    lines: [
      ['a', '\r'],
      ['b', '\r'],
      ['c', '\r'],
    ],
    edit: 0,
    replacement: 'A',
    expectedEncoding: 'utf-8',
    expectedLineEnding: '\r',
  },
  {
    name: 'UTF-8 with BOM',
    encoding: 'utf-8',
    bom: [0xef, 0xbb, 0xbf],
    lines: [
      ['ünïcödé', '\n'],
      ['zwei', '\r\n'],
      ['drei', '\n'],
    ],
    edit: 1,
    replacement: 'ZWEI — €',
    expectedEncoding: 'utf-8',
    expectedLineEnding: '\n',
  },
  {
    name: 'UTF-16 LE with BOM',
    encoding: 'utf-16le',
    bom: [0xff, 0xfe],
    lines: [
      ['héllo', '\r\n'],
      ['wörld 😀', '\r\n'],
      ['end', '\r\n'],
    ],
    edit: 1,
    replacement: 'WÖRLD 🎉',
    expectedEncoding: 'utf-16le',
    expectedLineEnding: '\r\n',
  },
  {
    name: 'UTF-16 BE with BOM',
    encoding: 'utf-16be',
    bom: [0xfe, 0xff],
    lines: [
      ['héllo', '\n'],
      ['wörld', '\r\n'],
      ['end', '\n'],
    ],
    edit: 2,
    replacement: 'END',
    expectedEncoding: 'utf-16be',
    expectedLineEnding: '\n',
  },
  {
    name: 'GBK',
    encoding: 'gbk',
    lines: [
      ['你好，世界！这是一个测试文件。', '\r\n'],
      ['第二行：中文内容，编码为国标。', '\r\n'],
      ['第三行', '\r\n'],
    ],
    edit: 1,
    replacement: '第二行：已经修改过了。',
    expectedEncoding: 'gbk',
    expectedLineEnding: '\r\n',
  },
  {
    name: 'Shift_JIS',
    encoding: 'shift_jis',
    lines: [
      ['こんにちは世界。これはテストです。', '\n'],
      ['カタカナとひらがなと漢字。', '\n'],
      ['終わり', '\n'],
    ],
    edit: 0,
    replacement: 'さようなら世界。',
    expectedEncoding: 'shift_jis',
    expectedLineEnding: '\n',
  },
  {
    name: 'latin-1',
    encoding: 'latin1',
    lines: [
      ['Café déjà vu, naïve façade', '\n'],
      ['Zürich Straße', '\r\n'],
      ['Ça va très bien', '\n'],
    ],
    edit: 1,
    replacement: 'Genève à côté',
    expectedEncoding: 'windows-1252',
    expectedLineEnding: '\n',
  },
];

describe('decode → edit one line → encodeChange', () => {
  for (const testCase of cases) {
    it(`${testCase.name}: every byte except the edited line is unchanged`, async ({ roundTripFile }) => {
      const bom = Buffer.from(testCase.bom ?? []);
      const lineBytes = testCase.lines.map(([text, ending]) => encodeLine(text + ending, testCase.encoding));
      const bytes = await roundTripFile('file.txt', Buffer.concat([bom, ...lineBytes]));

      const decoded = decodeOk(bytes);
      expect(decoded.format).toEqual({
        encoding: testCase.expectedEncoding,
        bom: bom.length > 0,
        lineEnding: testCase.expectedLineEnding,
      });
      expect(decoded.raw).toBe(testCase.lines.map(([text, ending]) => text + ending).join(''));
      expect(decoded.text).not.toContain('\r');
      expect(Buffer.from(encodeChange(decoded, bytes, decoded.text)).equals(bytes)).toBe(true);

      const textLines = decoded.text.split('\n');
      textLines[testCase.edit] = testCase.replacement;
      const written = await roundTripFile('written.txt', encodeChange(decoded, bytes, textLines.join('\n')));

      const [, ending] = testCase.lines[testCase.edit] as readonly [string, string];
      const expected = Buffer.concat([
        bom,
        ...lineBytes.map((line, index) =>
          index === testCase.edit ? encodeLine(testCase.replacement + ending, testCase.encoding) : line,
        ),
      ]);
      expect(written.equals(expected)).toBe(true);
    });
  }
});

describe('decodeText', () => {
  it('treats a NUL byte as binary', () => {
    expect(decodeText(Buffer.from('text\0more'))).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x00]))).toEqual({ ok: false, reason: 'binary' });
  });

  it('refuses bytes that decode in no supported encoding', async ({ roundTripFile }) => {
    const bytes = await roundTripFile(
      'bad.txt',
      Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d, 0xff, 0xfe, 0x80, 0x81]),
    );
    expect(decodeText(bytes)).toEqual({ ok: false, reason: 'unsupported-encoding' });
  });

  it('decodes short Latin-1 text that chardet cannot place as windows-1252, but not control-laden bytes', () => {
    const bytes = Buffer.from('café\n', 'latin1');
    const decoded = decodeOk(bytes);
    expect(decoded.format.encoding).toBe('windows-1252');
    expect(decoded.raw).toBe('café\n');
    expect(decodeText(Buffer.from([0xc3, 0x28, 0x01]))).toEqual({
      ok: false,
      reason: 'unsupported-encoding',
    });
  });

  it('refuses broken UTF-16 after a BOM and a U+0000 inside UTF-16 text', () => {
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x00, 0xd8]))).toEqual({
      ok: false,
      reason: 'unsupported-encoding',
    });
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x00, 0x00]))).toEqual({
      ok: false,
      reason: 'binary',
    });
  });

  it('decodes ASCII (its fast path) exactly as strict UTF-8, with or without a BOM, and UTF-8 past it', () => {
    const ascii = Uint8Array.from({ length: 0x7f }, (_, at) => at + 1);
    const expected = new TextDecoder('utf-8', { fatal: true }).decode(ascii);
    const decoded = decodeOk(ascii);
    expect(decoded.raw).toBe(expected);
    expect(decoded.text).toBe(expected.replace('\r', '\n'));
    expect(decoded.format).toMatchObject({ encoding: 'utf-8', bom: false });
    expect(decodeOk(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ascii])).raw).toBe(expected);
    const withAccent = decodeOk(Buffer.concat([ascii, Buffer.from('é\n')]));
    expect(withAccent.raw).toBe(`${expected}é\n`);
    expect(withAccent.format.encoding).toBe('utf-8');
  });

  it('decodes an empty file as empty UTF-8 text', () => {
    expect(decodeText(new Uint8Array())).toEqual({
      ok: true,
      decoded: { raw: '', text: '', format: { encoding: 'utf-8', bom: false, lineEnding: '\n' } },
    });
  });

  it('keeps real latin-1 control bytes (undefined in windows-1252) through iso-8859-1', () => {
    const bytes = Buffer.from('café \x81\x8d menu\n', 'latin1');
    const decoded = decodeOk(bytes);
    expect(decoded.format.encoding).toBe('iso-8859-1');
    expect(Buffer.from(encodeChange(decoded, bytes, decoded.text)).equals(bytes)).toBe(true);
  });

  it('uses gb18030 only when the file needs its four-byte sequences', () => {
    const text = '中文内容，包含表情😀和更多的中文字符，以便检测编码。\n';
    const bytes = iconv.encode(text, 'gb18030');
    const decoded = decodeOk(bytes);
    expect(decoded.format.encoding).toBe('gb18030');
    expect(decoded.raw).toBe(text);
  });
});

describe('encodeText', () => {
  it('adds the BOM and refuses characters the encoding cannot store', () => {
    expect(Buffer.from(encodeText('A', { encoding: 'utf-16be', bom: true })).toJSON().data).toEqual([
      0xfe, 0xff, 0x00, 0x41,
    ]);
    expect(canEncodeText('中文', { encoding: 'windows-1252', bom: false })).toBe(false);
    expect(canEncodeText('“€”', { encoding: 'windows-1252', bom: false })).toBe(true);
    expect(() => encodeText('abc 😀', { encoding: 'gbk', bom: false })).toThrow(UnencodableTextError);
    expect(() => encodeText('abc 😀', { encoding: 'gbk', bom: false })).toThrow(
      'The character "😀" (U+1F600) cannot be encoded in gbk.',
    );
    expect(() => encodeText('lone \ud800', { encoding: 'utf-8', bom: false })).toThrow(UnencodableTextError);
  });
});

describe('detectTextEncoding', () => {
  it('accepts a sample cut in the middle of a character', () => {
    const utf8 = Buffer.from('日本語のテキスト');
    expect(detectTextEncoding(utf8.subarray(0, utf8.length - 1), false)).toEqual({
      encoding: 'utf-8',
      bom: false,
    });
    expect(detectTextEncoding(utf8.subarray(0, utf8.length - 1), true)).not.toEqual({
      encoding: 'utf-8',
      bom: false,
    });
    const gbk = iconv.encode('你好，世界！这是一个测试文件。第二行：中文内容。', 'gbk');
    expect(detectTextEncoding(gbk.subarray(0, gbk.length - 1), false)).toEqual({
      encoding: 'gbk',
      bom: false,
    });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('text', 'utf16le')]);
    expect(detectTextEncoding(utf16.subarray(0, utf16.length - 1), false)).toEqual({
      encoding: 'utf-16le',
      bom: true,
    });
  });

  it('returns null for binary samples', () => {
    expect(detectTextEncoding(Buffer.from([0x41, 0x00, 0x42]), false)).toBeNull();
  });
});
