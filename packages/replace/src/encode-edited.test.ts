import { encodeText, type TextFormat } from '@kimi-tools/core';
import { describe, expect, it } from 'vitest';
import { encodeEdited } from './encode-edited.js';
import { applyEdits } from './match/apply-edits.js';

const FORMATS: TextFormat[] = [
  { encoding: 'utf-8', bom: false, lineEnding: '\n' },
  { encoding: 'utf-8', bom: true, lineEnding: '\r\n' },
  { encoding: 'utf-16le', bom: true, lineEnding: '\n' },
  { encoding: 'utf-16be', bom: true, lineEnding: '\n' },
  { encoding: 'gbk', bom: false, lineEnding: '\n' },
];

// Edits whose changed region starts or ends inside a surrogate pair, next to multi-byte characters, at the ends.
const CASES: Array<{ content: string; old: string; new: string; replaceAll?: boolean }> = [
  { content: 'a\u00e9b\u4e2dc\n', old: 'b', new: 'B\u00fc' },
  { content: '\ud83d\ude00x', old: '\ud83d\ude00', new: '\ud83d\ude01' },
  { content: 'x\ud83d\ude00', old: '\ud83d\ude00', new: '\ud83d\ude03' },
  { content: 'start middle end', old: 'start', new: 'START' },
  { content: 'start middle end', old: 'end', new: '' },
  { content: 'aXbXc\u4e2d', old: 'X', new: '\u00e9\u00e9', replaceAll: true },
  { content: 'one\r\ntwo\r\n', old: 'one\ntwo', new: 'uno\ndos' },
];

describe('encodeEdited', () => {
  for (const format of FORMATS) {
    it(`gives the same bytes as encoding the whole text (${format.encoding}${format.bom ? ' + BOM' : ''})`, () => {
      for (const sample of CASES) {
        if (format.encoding === 'gbk' && /[\ud800-\udfff]/.test(sample.content + sample.new)) continue;
        const original = encodeText(sample.content, format);
        const result = applyEdits(sample.content, [
          { old: sample.old, new: sample.new, replace_all: sample.replaceAll ?? false },
        ]);
        if (!result.ok) throw new Error(JSON.stringify(result));
        const bytes = encodeEdited(
          original,
          {
            original: sample.content,
            edited: result.content,
            unchangedPrefix: result.unchangedPrefix,
            unchangedSuffix: result.unchangedSuffix,
          },
          format,
        );
        expect(Buffer.from(bytes)).toEqual(Buffer.from(encodeText(result.content, format)));
      }
    });
  }

  it('reports the untouched ends of a multi-edit change', () => {
    const result = applyEdits('0123456789', [
      { old: '5', new: 'five', replace_all: false },
      { old: '2', new: '', replace_all: false },
    ]);
    expect(result).toMatchObject({
      ok: true,
      content: '0134five6789',
      unchangedPrefix: 2,
      unchangedSuffix: 4,
    });
  });
});
