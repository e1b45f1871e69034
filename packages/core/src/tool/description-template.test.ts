import { describe, expect, it } from 'vitest';
import { renderDescription } from './description-template.js';

describe('renderDescription', () => {
  it('fills placeholders and trims', () => {
    expect(
      renderDescription('\nAt most ${MAX} lines of ${WHAT}.\n', { MAX: 1000, WHAT: 'text' }, 'a.md'),
    ).toBe('At most 1000 lines of text.');
  });

  it('drops a bullet that is only an empty placeholder, keeps it when filled', () => {
    const template = '- first\n- ${TIP}\n- last\n';
    expect(renderDescription(template, { TIP: '' }, 'a.md')).toBe('- first\n- last');
    expect(renderDescription(template, { TIP: 'read first' }, 'a.md')).toBe('- first\n- read first\n- last');
  });

  it('refuses an unknown placeholder, naming the file', () => {
    expect(() => renderDescription('${NOPE}', {}, 'tool.md')).toThrow('tool.md: unknown placeholder ${NOPE}');
  });
});
