import { describe, expect, it } from 'vitest';
import { CLOSEST_TEXT_MAX_LINES, findClosestText } from '@kimi-tools/core/toolkit';
import { editFailureText } from '../errors.js';
import { editSuccessText } from '../edit/write-edit.js';
import { lineNumbersAt } from './line-numbers.js';
import { iterateOccurrences } from './match-exact.js';
import { carryQuoteStyle, straightenQuotes } from './match-quotes.js';
import { findWhitespaceMatches, reindent } from './match-whitespace.js';

describe('line numbers', () => {
  it('numbers lines the way the model sees them', () => {
    expect(lineNumbersAt('a\nb\nc\nd', [0, 2, 4, 6])).toEqual([1, 2, 3, 4]);
    expect(lineNumbersAt('x\ny\nz', [0, 4])).toEqual([1, 3]);
  });
});

describe('exact occurrences', () => {
  it('finds non-overlapping occurrences, or overlapping ones too', () => {
    expect([...iterateOccurrences('aaaaa', 'aa')]).toEqual([0, 2]);
    expect([...iterateOccurrences('aaaaa', 'aa', true)]).toEqual([0, 1, 2, 3]);
    expect([...iterateOccurrences('abcabc', 'bc')]).toEqual([1, 4]);
    expect([...iterateOccurrences('abc', '')]).toEqual([]);
  });
});

describe('quotes', () => {
  it('straightens curly quotes one for one', () => {
    expect(straightenQuotes('\u2018a\u2019 \u201Cb\u201D')).toBe('\'a\' "b"');
  });

  it('curls double quotes by position when the file does', () => {
    expect(carryQuoteStyle('\u201Cx\u201D', 'say "hi" ("there")')).toBe(
      'say \u201Chi\u201D (\u201Cthere\u201D)',
    );
  });

  it('leaves single quotes straight when the file curls only double ones', () => {
    expect(carryQuoteStyle('\u201Cx\u201D', 'it\'s "ok"')).toBe("it's \u201Cok\u201D");
  });

  it('turns apostrophes between letters into right single quotes', () => {
    expect(carryQuoteStyle('don\u2019t', "can't won't 'quoted'")).toBe(
      'can\u2019t won\u2019t \u2018quoted\u2019',
    );
  });

  it('keeps straight string delimiters of code whose apostrophe is curly', () => {
    expect(carryQuoteStyle("'You\u2019re all done!'", "'You're all done! Take a break.'")).toBe(
      "'You\u2019re all done! Take a break.'",
    );
    expect(carryQuoteStyle('"It\u2019s"', '"It\'s" and "that\'s"')).toBe('"It\u2019s" and "that\u2019s"');
  });

  it('changes nothing when the matched text has no curly quotes', () => {
    expect(carryQuoteStyle('"x"', '"y"')).toBe('"y"');
  });
});

describe('whitespace matches', () => {
  it('finds a block with indentation added, and reports the shift', () => {
    const content = 'top\n    a()\n    b()\nend\n';
    expect(findWhitespaceMatches(content, 'a()\nb()')).toEqual([
      { start: 4, end: 19, shift: { direction: 'add', prefix: '    ' } },
    ]);
  });

  it('finds a block with indentation removed', () => {
    expect(findWhitespaceMatches('a()\n  b()\n', '  a()\n    b()\n')).toEqual([
      { start: 0, end: 10, shift: { direction: 'remove', prefix: '  ' } },
    ]);
  });

  it('requires a trailing line break when old ends with one', () => {
    expect(findWhitespaceMatches('  a()', 'a()\n')).toEqual([]);
  });

  it('walks back over blank lines before the anchor', () => {
    expect(findWhitespaceMatches('x\n\n  a()\n', '\na()')).toEqual([
      { start: 2, end: 8, shift: { direction: 'add', prefix: '  ' } },
    ]);
  });

  it('never mixes tabs and spaces', () => {
    expect(findWhitespaceMatches('\ta()\n', '    a()')).toEqual([]);
    expect(findWhitespaceMatches('    a()\n', '\ta()')).toEqual([]);
  });

  it('ignores old made only of whitespace', () => {
    expect(findWhitespaceMatches('  \n', '   ')).toEqual([]);
  });

  it('stops at the limit', () => {
    expect(findWhitespaceMatches(' a\n  a\n   a\n', 'a', 2)).toHaveLength(2);
  });

  it('re-indents by the shift, leaving blank lines alone', () => {
    expect(reindent('a\n\n  b', { direction: 'add', prefix: '\t' })).toBe('\ta\n\n\t  b');
    expect(reindent('    a\n  b\nc', { direction: 'remove', prefix: '    ' })).toBe('a\nb\nc');
  });
});

describe('closest text', () => {
  it('quotes the shown text and finds the most similar line', () => {
    const shown = 'alpha\n\u201Cbeta gamma\u201D\n';
    expect(findClosestText(straightenQuotes(shown), shown, '"beta gamma!"')).toEqual({
      line: 2,
      excerpt: '\u201Cbeta gamma\u201D',
    });
  });

  it('ignores keys too short to be meaningful', () => {
    expect(findClosestText('ab\n', 'ab\n', 'ab')).toBeUndefined();
  });

  it('looks only at the first lines of a huge file', () => {
    const filler = 'zzzzzzzzzz\n'.repeat(CLOSEST_TEXT_MAX_LINES);
    const content = `${filler}target line here\n`;
    expect(findClosestText(content, content, 'target line here!')).toBeUndefined();
    expect(
      findClosestText(`target line here\n${filler}`, `target line here\n${filler}`, 'target line here!'),
    ).toEqual({
      line: 1,
      excerpt: 'target line here',
    });
  });

  it('cuts long lines in the excerpt', () => {
    const long = `${'word '.repeat(60)}`;
    const result = findClosestText(long, long, `${long}x`);
    expect(result?.excerpt).toBe(`${long.slice(0, 160)}…`);
  });
});

describe('messages', () => {
  it('words the ambiguous error with every line', () => {
    expect(editFailureText(2, { kind: 'ambiguous', lines: [4, 9], count: 2 })).toEqual({
      message:
        'Edit 2: found 2 matches of the old string (at lines 4, 9). Provide more surrounding context to make it unique, or set replace_all to true.',
      brief: 'Ambiguous match',
    });
  });

  it('ends the list with ... when there are more matches than lines listed', () => {
    expect(editFailureText(1, { kind: 'ambiguous', lines: [1, 2], count: 30 }).message).toBe(
      'Edit 1: found 30 matches of the old string (at lines 1, 2, ...). Provide more surrounding context to make it unique, or set replace_all to true.',
    );
  });

  it('does not add ... for matches that share a listed line', () => {
    expect(editFailureText(1, { kind: 'ambiguous', lines: [1, 3], count: 3 }).message).toBe(
      'Edit 1: found 3 matches of the old string (at lines 1, 3). Provide more surrounding context to make it unique, or set replace_all to true.',
    );
  });

  it('names each edit that needed a looser level', () => {
    expect(editSuccessText(['exact', 'quotes', 'whitespace', 'line-endings'], 7)).toBe(
      'File successfully edited. Applied 4 edit(s) with 7 total replacement(s). Edit 2 matched after normalising quotes. Edit 3 matched after normalising whitespace. Edit 4 matched after normalising line endings.',
    );
  });

  it('says the edits matched, not that they were applied, when only part of the change was written', () => {
    expect(editSuccessText(['exact', 'quotes'], 2, 'part')).toBe(
      'File successfully edited. Matched 2 edit(s) with 2 total replacement(s); only part of the change was written. Edit 2 matched after normalising quotes.',
    );
  });
});
