import { describe, expect, it } from 'vitest';
import { errorText, toolError, toolOk, toolRejected } from './tool-result.js';

describe('tool results', () => {
  it('puts the brief block first and only when there is a brief', () => {
    const diff = {
      type: 'diff',
      path: '/a',
      oldText: 'x',
      newText: 'y',
      oldStart: 1,
      newStart: 1,
      isSummary: false,
    } as const;
    expect(toolOk({ message: 'done', display: [diff] })).toEqual({
      isError: false,
      output: '',
      message: 'done',
      brief: '',
      display: [diff],
    });
    expect(toolError({ message: 'bad', brief: 'Bad', display: [diff] }).display).toEqual([
      { type: 'brief', text: 'Bad' },
      diff,
    ]);
  });

  it('keeps extras only when given', () => {
    expect('extras' in toolOk()).toBe(false);
    expect(toolOk({ extras: { n: 1 } }).extras).toEqual({ n: 1 });
  });

  it('words rejections with and without feedback', () => {
    expect(toolRejected()).toMatchObject({
      isError: true,
      message:
        'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.',
      brief: 'Rejected by user',
    });
    expect(toolRejected('use tabs')).toMatchObject({
      isError: true,
      message: 'The tool call is rejected by the user. User feedback: use tabs',
      brief: 'Rejected: use tabs',
    });
    expect(toolRejected('   ').brief).toBe('Rejected by user');
  });

  it('gets the text of anything thrown', () => {
    expect(errorText(new Error('x'))).toBe('x');
    expect(errorText('plain')).toBe('plain');
  });
});
