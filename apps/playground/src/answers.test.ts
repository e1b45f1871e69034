import { describe, expect, it } from 'vitest';
import { describeAnswer, parseAnswer, parseAnswerList } from './answers.js';

describe('parseAnswer', () => {
  it('reads y, a, n, their long forms and n:FEEDBACK', () => {
    expect(parseAnswer('y')).toEqual({ kind: 'approve' });
    expect(parseAnswer(' YES ')).toEqual({ kind: 'approve' });
    expect(parseAnswer('a')).toEqual({ kind: 'approve_for_session' });
    expect(parseAnswer('always')).toEqual({ kind: 'approve_for_session' });
    expect(parseAnswer('n')).toEqual({ kind: 'reject' });
    expect(parseAnswer('no')).toEqual({ kind: 'reject' });
    expect(parseAnswer('n: use tabs: not spaces ')).toEqual({
      kind: 'reject',
      feedback: 'use tabs: not spaces',
    });
    expect(parseAnswer('n:')).toEqual({ kind: 'reject' });
  });

  it('reads h:HUNKS (with or without feedback) as an approval of only those hunks, and e as an edit', () => {
    expect(parseAnswer('h:h1+h3')).toEqual({ kind: 'approve', hunks: ['h1', 'h3'] });
    expect(parseAnswer('hunks: h2 : keep the old name ')).toEqual({
      kind: 'approve',
      hunks: ['h2'],
      feedback: 'keep the old name',
    });
    expect(parseAnswer('h:')).toEqual({ kind: 'approve', hunks: [] });
    expect(parseAnswer('e')).toEqual({ kind: 'edit' });
    expect(parseAnswer('EDIT')).toEqual({ kind: 'edit' });
  });

  it('reads a:SCOPE as an approval for the session of the same files, directories or action', () => {
    expect(parseAnswer('a:file')).toEqual({ kind: 'approve_for_session', scope: 'file' });
    expect(parseAnswer('always: DIR ')).toEqual({ kind: 'approve_for_session', scope: 'directory' });
    expect(parseAnswer('a:directory')).toEqual({ kind: 'approve_for_session', scope: 'directory' });
    expect(parseAnswer('a:action')).toEqual({ kind: 'approve_for_session', scope: 'action' });
    expect(parseAnswer('a:everything')).toBeUndefined();
    expect(parseAnswer('a:')).toBeUndefined();
  });

  it('refuses anything else, and feedback on an approval', () => {
    expect(parseAnswer('')).toBeUndefined();
    expect(parseAnswer('maybe')).toBeUndefined();
    expect(parseAnswer('y:thanks')).toBeUndefined();
    expect(parseAnswer('h')).toBeUndefined();
    expect(parseAnswer('h:h1++h2')).toBeUndefined();
    expect(parseAnswer('e:mine')).toBeUndefined();
  });
});

describe('parseAnswerList', () => {
  it('splits every value on commas, in order', () => {
    expect(parseAnswerList(['y,n:use tabs', 'a'])).toEqual({
      answers: [
        { kind: 'approve' },
        { kind: 'reject', feedback: 'use tabs' },
        { kind: 'approve_for_session' },
      ],
    });
    expect(parseAnswerList([])).toEqual({ answers: [] });
  });

  it('names the first entry that is not an answer', () => {
    expect(parseAnswerList(['y,,n'])).toEqual({
      error:
        '"" is not an answer: use y, a, a:file, a:dir, n, n:FEEDBACK, h:HUNKS or e (comma-separated, e.g. y,a,n:use tabs,h:h1+h3).',
    });
  });
});

describe('describeAnswer', () => {
  it('words each answer for the transcript', () => {
    expect(describeAnswer({ kind: 'approve' })).toBe('approve');
    expect(describeAnswer({ kind: 'approve_for_session' })).toBe('approve for this session');
    expect(describeAnswer({ kind: 'reject' })).toBe('reject');
    expect(describeAnswer({ kind: 'reject', feedback: 'no' })).toBe('reject, with feedback "no"');
    expect(describeAnswer({ kind: 'approve', hunks: ['h1', 'h3'], feedback: 'x' })).toBe(
      'approve hunks h1, h3, with feedback "x"',
    );
    expect(describeAnswer({ kind: 'approve', hunks: [] })).toBe('approve no hunk');
    expect(describeAnswer({ kind: 'approve', content: 'mine' })).toBe('approve your edited version');
  });

  it('names what an approval for the session covers', () => {
    const file = { kind: 'approve_for_session', scope: 'file' } as const;
    const directory = { kind: 'approve_for_session', scope: 'directory' } as const;
    expect(describeAnswer(file, ['src/a.ts', 'b.md'])).toBe('approve src/a.ts, b.md for this session');
    expect(describeAnswer(directory, ['src/a.ts', 'src/b.ts', 'b.md'])).toBe(
      'approve everything under src/, ./ for this session',
    );
    expect(describeAnswer({ kind: 'approve_for_session', scope: 'action' }, ['a.ts'])).toBe(
      'approve for this session',
    );
  });
});
