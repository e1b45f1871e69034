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

  it('refuses anything else, and feedback on an approval', () => {
    expect(parseAnswer('')).toBeUndefined();
    expect(parseAnswer('maybe')).toBeUndefined();
    expect(parseAnswer('y:thanks')).toBeUndefined();
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
      error: '"" is not an answer: use y, a, n or n:FEEDBACK (comma-separated, e.g. y,a,n:use tabs).',
    });
  });
});

describe('describeAnswer', () => {
  it('words each answer for the transcript', () => {
    expect(describeAnswer({ kind: 'approve' })).toBe('approve');
    expect(describeAnswer({ kind: 'approve_for_session' })).toBe('approve for this session');
    expect(describeAnswer({ kind: 'reject' })).toBe('reject');
    expect(describeAnswer({ kind: 'reject', feedback: 'no' })).toBe('reject, with feedback "no"');
  });
});
