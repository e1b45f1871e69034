import { decodeText, encodeChange, type DecodedText, type LineEnding } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { applyEdits, type ApplyEditsOptions } from './apply-edits.js';
import type { EditSpec } from './types.js';

function edit(old: string, replacement: string, replaceAll = false): EditSpec {
  return { old, new: replacement, replace_all: replaceAll };
}

/** `content` as the file StrReplaceFile would decode; `lineBreak` stands in for its dominant line ending. */
function decoded(content: string, lineBreak?: LineEnding): DecodedText {
  const result = decodeText(Buffer.from(content, 'utf8'));
  if (!result.ok) throw new Error(`not text: ${JSON.stringify(content)}`);
  const format = { ...result.decoded.format, lineEnding: lineBreak ?? result.decoded.format.lineEnding };
  return { ...result.decoded, format };
}

/** Applies the edits; `content` is what the file then holds (its bytes as UTF-8 text, line endings and all). */
function applied(
  content: string,
  edits: EditSpec[],
  options?: ApplyEditsOptions & { lineBreak?: LineEnding },
) {
  const file = decoded(content, options?.lineBreak);
  const result = applyEdits(file, edits, options);
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result)}`);
  const bytes = encodeChange(file, Buffer.from(content, 'utf8'), result.replacements);
  return { ...result, content: Buffer.from(bytes).toString('utf8') };
}

describe('exact level', () => {
  it('replaces a unique match and reports exact', () => {
    const result = applied('alpha beta gamma', [edit('beta', 'BETA')]);
    expect(result.content).toBe('alpha BETA gamma');
    expect(result.edits).toEqual([{ replacements: 1, matchedBy: 'exact' }]);
  });

  it('inserts $&, $1, $$ and $` literally', () => {
    const result = applied('price = 5', [edit('5', "$& $1 $$ $` $'")]);
    expect(result.content).toBe("price = $& $1 $$ $` $'");
  });

  it('refuses an ambiguous match with every line number', () => {
    const result = applyEdits(decoded('x = 1\ny = 2\nx = 1\n\nx = 1'), [edit('x = 1', 'x = 3')]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 3, 5], count: 3 },
    });
  });

  it('names a line with several matches once', () => {
    expect(applyEdits(decoded('a a\nb\na'), [edit('a', 'c')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 3], count: 3 },
    });
  });

  it('counts every match of a very common old but lists only the first lines', () => {
    const content = 'x\n'.repeat(1000);
    const result = applyEdits(decoded(content), [edit('x', 'y')]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: Array.from({ length: 20 }, (_, n) => n + 1), count: 1000 },
    });
  });

  it('counts overlapping matches: two lines of end in three is ambiguous, not an edit of the first two', () => {
    expect(applyEdits(decoded('end\nend\nend\n'), [edit('end\nend', 'END\nEND')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 2], count: 2 },
    });
    expect(applyEdits(decoded('aaa'), [edit('aa', 'b')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1], count: 2 },
    });
  });

  it('replace_all replaces every non-overlapping match', () => {
    const result = applied('aaaa', [edit('aa', 'b', true)]);
    expect(result.content).toBe('bb');
    expect(result.edits).toEqual([{ replacements: 2, matchedBy: 'exact' }]);
  });

  it('first mode takes the first of several matches without complaint', () => {
    const result = applied('a1 a1 a1', [edit('a1', 'b2')], { mode: 'first' });
    expect(result.content).toBe('b2 a1 a1');
    expect(result.edits).toEqual([{ replacements: 1, matchedBy: 'exact' }]);
  });

  it('first mode still needs a looser level to match uniquely', () => {
    expect(
      applyEdits(decoded('  foo()\n  foo()\n'), [edit('    foo()', 'bar()')], { mode: 'first' }),
    ).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 2], count: 2 },
    });
  });

  it('rejects an empty old and identical strings', () => {
    expect(applyEdits(decoded('abc'), [edit('', 'x')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'empty-old' },
    });
    expect(applyEdits(decoded('abc'), [edit('a', 'A'), edit('b', 'b')])).toEqual({
      ok: false,
      index: 2,
      failure: { kind: 'identical' },
    });
  });

  it('handles a multi-line old with and without its final newline', () => {
    const content = 'one\ntwo\nthree\nfour\n';
    expect(applied(content, [edit('two\nthree\n', 'TWO\n')]).content).toBe('one\nTWO\nfour\n');
    expect(applied(content, [edit('two\nthree', 'TWO')]).content).toBe('one\nTWO\nfour\n');
  });
});

describe('running content', () => {
  it('lets a later edit match text produced by an earlier one, and counts it', () => {
    const result = applied('let a = 1;', [edit('a = 1', 'b = 1; let c = 2'), edit('c = 2', 'c = 3')]);
    expect(result.content).toBe('let b = 1; let c = 3;');
    expect(result.edits).toEqual([
      { replacements: 1, matchedBy: 'exact' },
      { replacements: 1, matchedBy: 'exact' },
    ]);
  });

  it('counts replace_all on the running content', () => {
    const result = applied('x y', [edit('y', 'x'), edit('x', 'z', true)]);
    expect(result.content).toBe('z z');
    expect(result.edits[1]).toEqual({ replacements: 2, matchedBy: 'exact' });
  });

  it('stops at the first failing edit and names it', () => {
    const result = applyEdits(decoded('a b c'), [edit('a', 'A'), edit('b', 'B'), edit('zzz', 'Z')]);
    expect(result).toEqual({ ok: false, index: 3, failure: { kind: 'not-found', closest: undefined } });
  });
});

describe('deleting lines', () => {
  it('removes the line break of a deleted whole line', () => {
    expect(applied('a\nb\nc\n', [edit('b', '')]).content).toBe('a\nc\n');
    expect(applied('a\r\nb\r\nc\r\n', [edit('b', '')]).content).toBe('a\r\nc\r\n');
  });

  it('removes the break before a deleted last line without a final newline', () => {
    expect(applied('a\nb', [edit('b', '')]).content).toBe('a');
    expect(applied('only', [edit('only', '')]).content).toBe('');
  });

  it('keeps the break when only part of a line is deleted', () => {
    expect(applied('ab\nc\n', [edit('b', '')]).content).toBe('a\nc\n');
  });

  it('does not take an extra break when old already ends with one', () => {
    expect(applied('a\n\nb', [edit('a\n', '')]).content).toBe('\nb');
  });

  it('deletes every matching whole line with replace_all, leaving no blank lines', () => {
    expect(applied('x\nkeep\nx\nx', [edit('x', '', true)]).content).toBe('keep');
    expect(applied('x\nx\nx', [edit('x', '', true)]).content).toBe('');
    expect(applied('keep\nx\nx', [edit('x', '', true)]).content).toBe('keep');
    expect(applied('keep\r\nx\r\nx', [edit('x', '', true)]).content).toBe('keep');
  });

  it('deletes a block of whole lines', () => {
    expect(applied('a\nb\nc\nd\n', [edit('b\nc', '')]).content).toBe('a\nd\n');
  });
});

describe('line-endings level', () => {
  it('matches LF strings in a CRLF file and writes CRLF', () => {
    const result = applied('one\r\ntwo\r\nthree\r\n', [edit('one\ntwo\n', 'uno\ndos\n')], {
      lineBreak: '\r\n',
    });
    expect(result.content).toBe('uno\r\ndos\r\nthree\r\n');
    expect(result.edits).toEqual([{ replacements: 1, matchedBy: 'line-endings' }]);
  });

  it('single-line edits in a CRLF file stay exact and write new lines with CRLF', () => {
    const result = applied('a\r\nb\r\n', [edit('b', 'b\nc')], { lineBreak: '\r\n' });
    expect(result.content).toBe('a\r\nb\r\nc\r\n');
    expect(result.edits[0]?.matchedBy).toBe('exact');
  });

  it('maps offsets back across many CRLFs', () => {
    const lines = Array.from({ length: 50 }, (_, n) => `line ${n}`);
    const content = `${lines.join('\r\n')}\r\n`;
    const result = applied(content, [edit('line 40\nline 41', 'X\nY')], { lineBreak: '\r\n' });
    expect(result.content).toBe(content.replace('line 40\r\nline 41', 'X\r\nY'));
  });

  it('keeps each untouched line ending of a mixed file, and unchanged lines inside the match', () => {
    const content = 'a\nb\r\nc\rd\n';
    const result = applied(content, [edit('b\nc\nd', 'b\nC\nd')], { lineBreak: '\n' });
    expect(result.content).toBe('a\nb\r\nC\rd\n');
    expect(result.edits[0]?.matchedBy).toBe('line-endings');
  });

  it('matches a CRLF old against an LF file', () => {
    const result = applied('a\nb\n', [edit('a\r\nb', 'x\r\ny')]);
    expect(result.content).toBe('x\ny\n');
    expect(result.edits[0]?.matchedBy).toBe('line-endings');
  });

  it('treats a raw-unique match as ambiguous when the text the model sees has it twice', () => {
    expect(applyEdits(decoded('foo\r\nfoo\nbar'), [edit('foo\n', 'x\n')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 2], count: 2 },
    });
    expect(applied('foo\r\nfoo\nbar', [edit('foo\n', 'x\n')], { mode: 'first' }).content).toBe(
      'foo\r\nx\nbar',
    );
  });

  it('reports ambiguity with line numbers counted over CRLF', () => {
    expect(applyEdits(decoded('k\r\nv\r\nk\r\nv'), [edit('k\nv', 'z')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 3], count: 2 },
    });
  });

  it('replace_all never loosens to line endings, and names where the line breaks alone kept old from matching', () => {
    const result = applyEdits(decoded('a\r\nb\r\na\r\nb\r\n'), [edit('a\nb', 'x', true)]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'line-breaks-differ', lines: [1, 3], count: 2, lineBreak: '\r\n' },
    });
    // A CRLF `old` in an LF file, found once.
    expect(applyEdits(decoded('a\nb\nc\n'), [edit('a\r\nb', 'x', true)])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'line-breaks-differ', lines: [1], count: 1, lineBreak: '\n' },
    });
    // Not there at all, line breaks or not: the plain not-found, with its closest text.
    expect(applyEdits(decoded('a\r\nb\r\n'), [edit('a\nc', 'x', true)])).toMatchObject({
      ok: false,
      failure: { kind: 'not-found' },
    });
    const crlf = applied('a\r\nb\r\na\r\nb\r\n', [edit('a', 'x', true)], { lineBreak: '\r\n' });
    expect(crlf.content).toBe('x\r\nb\r\nx\r\nb\r\n');
  });
});

describe('quotes level', () => {
  it('matches straight quotes against curly prose and carries the style into new', () => {
    const content = 'She said \u201Chello\u201D and didn\u2019t stay.\n';
    const result = applied(content, [edit('said "hello" and didn\'t', 'said "goodbye" and didn\'t')]);
    expect(result.content).toBe('She said \u201Cgoodbye\u201D and didn\u2019t stay.\n');
    expect(result.edits).toEqual([{ replacements: 1, matchedBy: 'quotes' }]);
  });

  it('opens and closes single quotes by position', () => {
    const content = 'the \u2018old\u2019 word\n';
    const result = applied(content, [edit("the 'old' word", "a 'new' word, 'twas rock 'n' roll")]);
    expect(result.content).toBe('a \u2018new\u2019 word, \u2018twas rock \u2018n\u2019 roll\n');
  });

  it('keeps straight quotes when the matched text has none curly', () => {
    const result = applied('say "hi"', [edit('say \u201Chi\u201D', 'say "yo"')]);
    expect(result.content).toBe('say "yo"');
    expect(result.edits[0]?.matchedBy).toBe('quotes');
  });

  it('refuses a loose quotes match that is not unique', () => {
    const result = applyEdits(decoded('\u201Ca\u201D\n\u201Ca\u201D'), [edit('"a"', '"b"')]);
    expect(result).toEqual({ ok: false, index: 1, failure: { kind: 'ambiguous', lines: [1, 2], count: 2 } });
  });
});

describe('whitespace level', () => {
  const python = 'class A:\n    def f(self):\n        if x:\n            return 1\n        return 2\n';

  it('matches a block indented one level deeper than old and re-indents new', () => {
    const result = applied(python, [edit('if x:\n    return 1\n', 'if x and y:\n    return 10\n')]);
    expect(result.content).toBe(
      'class A:\n    def f(self):\n        if x and y:\n            return 10\n        return 2\n',
    );
    expect(result.edits).toEqual([{ replacements: 1, matchedBy: 'whitespace' }]);
  });

  it('removes a uniform shift when old is indented more than the file', () => {
    const content = 'def g():\n    pass\n';
    const result = applied(content, [edit('    def g():\n        pass', '    def g():\n        return 1')]);
    expect(result.content).toBe('def g():\n    return 1\n');
  });

  it('ignores trailing whitespace on each line', () => {
    const result = applied('a = 1   \nb = 2\t\n', [edit('a = 1\nb = 2', 'a = 3\nb = 4')]);
    expect(result.content).toBe('a = 3\nb = 4\n');
    expect(result.edits[0]?.matchedBy).toBe('whitespace');
  });

  // Issue 20.4 changed this expectation: tabs and spaces stand in for each other one level later, at `indentation`.
  it('never lets tabs stand in for spaces at this level', () => {
    const content = 'if x:\n\tgo()\n';
    expect(applyEdits(decoded(content), [edit('if x:\n    go()', 'if x:\n    stop()')])).toMatchObject({
      ok: true,
      text: 'if x:\n\tstop()\n',
      edits: [{ replacements: 1, matchedBy: 'indentation' }],
    });
  });

  it('requires the shift to be the same on every line', () => {
    const content = '  a()\n      b()\n';
    expect(applyEdits(decoded(content), [edit('a()\nb()', 'c()')]).ok).toBe(false);
  });

  it('refuses a whitespace match that is not unique', () => {
    const content = '  go()\n    go()\n';
    expect(applyEdits(decoded(content), [edit('go()', 'stop()')]).ok).toBe(false);
    expect(applyEdits(decoded(content), [edit('go()  ', 'stop()')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'ambiguous', lines: [1, 2], count: 2 },
    });
  });

  it('matches blank lines inside the block', () => {
    const content = '    a()\n\n    b()\n';
    const result = applied(content, [edit('a()\n\nb()', 'c()\n\nd()')]);
    expect(result.content).toBe('    c()\n\n    d()\n');
  });

  it('works on CRLF files and keeps CRLF', () => {
    const content = 'x:\r\n    y\r\n';
    const result = applied(content, [edit('y\n', 'z\n')], { lineBreak: '\r\n' });
    expect(result.content).toBe('x:\r\n    z\r\n');
    expect(result.edits[0]?.matchedBy).toBe('line-endings');
    const shifted = applied('x:\r\n    y = 1  \r\n    w\r\n', [edit('y = 1\nw', 'y = 2\nw')], {
      lineBreak: '\r\n',
    });
    expect(shifted.content).toBe('x:\r\n    y = 2\r\n    w\r\n');
    expect(shifted.edits[0]?.matchedBy).toBe('whitespace');
  });

  it('deletes whole lines matched loosely, with their break', () => {
    const result = applied('a\n    b()  \nc\n', [edit('b()\n', '')]);
    expect(result.content).toBe('a\nc\n');
  });

  it('is never used with replace_all', () => {
    expect(applyEdits(decoded('  a()  \n'), [edit('a()\n', 'b()\n', true)])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'not-found', closest: { line: 1, excerpt: '  a()  ' } },
    });
  });
});

describe('not found', () => {
  it('offers the closest line with its number', () => {
    const content = 'first\nconst total = price * count;\nlast\n';
    const result = applyEdits(decoded(content), [edit('const total = price * amount;', 'x')]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'not-found', closest: { line: 2, excerpt: 'const total = price * count;' } },
    });
  });

  it('starts the excerpt where old would start and quotes the file as it is', () => {
    const content = 'a\n}\n  return \u201Cvalue\u201D + 1;\nz\n';
    const result = applyEdits(decoded(content), [edit('}\nreturn "value" + 2;', 'x')]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'not-found', closest: { line: 2, excerpt: '}\n  return \u201Cvalue\u201D + 1;' } },
    });
  });

  it('offers nothing when no line is similar', () => {
    expect(applyEdits(decoded('hello world\n'), [edit('completely different', 'x')])).toEqual({
      ok: false,
      index: 1,
      failure: { kind: 'not-found', closest: undefined },
    });
  });
});
