import { describe, expect, it } from 'vitest';
import { encodeText } from './codec.js';
import type { DecodedText, TextFormat } from './codec-types.js';
import { encodeChange } from './encode-change.js';
import { normalizeLineEndings } from './line-endings.js';
import { TextDraft } from './text-draft.js';

const FORMATS: TextFormat[] = [
  { encoding: 'utf-8', bom: false, lineEnding: '\n' },
  { encoding: 'utf-8', bom: true, lineEnding: '\r\n' },
  { encoding: 'utf-16le', bom: true, lineEnding: '\n' },
  { encoding: 'utf-16be', bom: true, lineEnding: '\n' },
  { encoding: 'gbk', bom: false, lineEnding: '\n' },
];

// Changes whose region starts or ends inside a surrogate pair, next to multi-byte characters, at the ends.
const CASES: Array<{ content: string; old: string; new: string; all?: boolean }> = [
  { content: 'a\u00e9b\u4e2dc\n', old: 'b', new: 'B\u00fc' },
  { content: '\ud83d\ude00x', old: '\ud83d\ude00', new: '\ud83d\ude01' },
  { content: 'x\ud83d\ude00', old: '\ud83d\ude00', new: '\ud83d\ude03' },
  { content: '\ud83d\ude00\ud83d\ude01', old: '\ude00\ud83d', new: '\ude02\ud83d' },
  { content: 'start middle end', old: 'start', new: 'START' },
  { content: 'start middle end', old: 'end', new: '' },
  { content: 'aXbXc\u4e2d', old: 'X', new: '\u00e9\u00e9', all: true },
  { content: 'one\r\ntwo\r\n', old: 'one\ntwo', new: 'uno\ndos' },
];

/** The file `content` encoded in `format`, as a tool would have decoded it. */
function fileOf(content: string, format: TextFormat): { bytes: Uint8Array; decoded: DecodedText } {
  const bytes = encodeText(content, format);
  return { bytes, decoded: { raw: content, text: normalizeLineEndings(content), format } };
}

/** Replaces the first (or every) `old` in the draft's text. */
function replaceIn(draft: TextDraft, old: string, replacement: string, all: boolean): void {
  const changes = [];
  for (
    let at = draft.text.indexOf(old);
    at !== -1;
    at = all ? draft.text.indexOf(old, at + old.length) : -1
  ) {
    changes.push({ start: at, end: at + old.length, text: replacement });
  }
  draft.replace(changes);
}

describe('encodeChange with replacements', () => {
  for (const format of FORMATS) {
    it(`gives the same bytes as encoding the whole text (${format.encoding}${format.bom ? ' + BOM' : ''})`, () => {
      for (const sample of CASES) {
        if (format.encoding === 'gbk' && /[\ud800-\udfff]/.test(sample.content + sample.new)) continue;
        const { bytes, decoded } = fileOf(sample.content, format);
        const draft = new TextDraft(decoded);
        replaceIn(draft, sample.old, sample.new, sample.all ?? false);
        const encoded = encodeChange(decoded, bytes, draft.replacements);
        expect(Buffer.from(encoded)).toEqual(Buffer.from(encodeText(draft.raw, format)));
      }
    });
  }

  it('writes a whole new text of a file with \\n breaks only as its encoding gives it', () => {
    for (const format of FORMATS.filter((candidate) => candidate.encoding !== 'gbk')) {
      const { bytes, decoded } = fileOf('line \u00e9 one\nline two\n', { ...format, lineEnding: '\n' });
      const text = 'line \u00e9 one\nline 2 \ud83d\ude00\nthree';
      expect(Buffer.from(encodeChange(decoded, bytes, text))).toEqual(Buffer.from(encodeText(text, format)));
    }
  });

  it('keeps a lone surrogate the file holds in the unchanged start of a whole new text', () => {
    const format: TextFormat = { encoding: 'utf-16le', bom: false, lineEnding: '\n' };
    const bytes = Buffer.concat([Buffer.from([0x00, 0xd8]), Buffer.from('abc\n', 'utf16le')]);
    const decoded: DecodedText = { raw: '\ud800abc\n', text: '\ud800abc\n', format };
    expect(Buffer.from(encodeChange(decoded, bytes, '\ud800xyz\n'))).toEqual(
      Buffer.concat([Buffer.from([0x00, 0xd8]), Buffer.from('xyz\n', 'utf16le')]),
    );
  });

  it('refuses to write half of a surrogate pair the change split', () => {
    const { bytes, decoded } = fileOf('a\ud83d\ude00b', FORMATS[0] as TextFormat);
    expect(() => encodeChange(decoded, bytes, [{ start: 1, end: 2, text: 'x' }])).toThrow(
      /cannot be encoded in utf-8/,
    );
  });

  it('keeps the bytes outside the changed regions of a mixed-ending file', () => {
    const { bytes, decoded } = fileOf('a\r\nb\nc\rd\r\ne\n', {
      encoding: 'utf-8',
      bom: false,
      lineEnding: '\r\n',
    });
    const encoded = encodeChange(decoded, bytes, [
      { start: 2, end: 3, text: 'B\nB2' },
      { start: 6, end: 7, text: 'D' },
    ]);
    expect(Buffer.from(encoded).toString('latin1')).toBe('a\r\nB\r\nB2\nc\rD\r\ne\n');
  });

  it('writes a new text whole: kept lines keep their endings, new ones get the dominant one', () => {
    const { bytes, decoded } = fileOf('one\r\ntwo\nthree\r\n', {
      encoding: 'utf-8',
      bom: false,
      lineEnding: '\r\n',
    });
    const encoded = encodeChange(decoded, bytes, 'zero\none\ntwo\nthree\nfour\n');
    expect(Buffer.from(encoded).toString('latin1')).toBe('zero\r\none\r\ntwo\nthree\r\nfour\r\n');
  });
});

describe('restoring one replaced region', () => {
  const restore = (raw: string, text: string, lineEnding: TextFormat['lineEnding']) => {
    const { bytes, decoded } = fileOf(raw, { encoding: 'utf-8', bom: false, lineEnding });
    const whole = [{ start: 0, end: decoded.text.length, text }];
    return Buffer.from(encodeChange(decoded, bytes, whole)).toString('latin1');
  };

  it('writes the changed middle with the dominant line break', () => {
    expect(restore('a', 'a\nb\nc', '\r\n')).toBe('a\r\nb\r\nc');
  });

  it('keeps the raw line breaks of unchanged leading and trailing lines', () => {
    expect(restore('x\ny\r\nz\rw', 'x\nY\nz\nw', '\r\n')).toBe('x\nY\r\nz\rw');
  });

  it('returns the new text as is when nothing is shared', () => {
    expect(restore('abc', 'xyz', '\n')).toBe('xyz');
  });
});
