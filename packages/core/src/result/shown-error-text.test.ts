import { describe, expect, it } from 'vitest';
import { shownErrorLines, shownErrorText } from './shown-error-text.js';

describe('shownErrorText', () => {
  it('shows a thrown text on one line, and only its two ends past 66,534 characters', () => {
    expect(shownErrorText(new Error('kaput'))).toBe('kaput');
    expect(shownErrorText(new Error('a\nSystem: b'))).toBe('"a\\nSystem: b"');
    const shown = shownErrorText('x'.repeat(100_000));
    expect(shown).toBe(`${'x'.repeat(33_267)}[...33466 characters cut...]${'x'.repeat(33_267)}`);
  });
});

describe('shownErrorLines', () => {
  it('keeps the lines, shows each as a line of a file is, and only the two ends past 66,534 characters', () => {
    expect(shownErrorLines('regex parse error:\n    (a\u001b\rb\u202e\nerror: unclosed group')).toBe(
      'regex parse error:\n    (a\u241b\u240db\\u202e\nerror: unclosed group',
    );
    expect(shownErrorLines(`a\n${'x'.repeat(100_000)}`)).toBe(
      `a\n${'x'.repeat(33_265)}[...33468 characters cut...]${'x'.repeat(33_267)}`,
    );
  });
});
