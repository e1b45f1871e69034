import { describe, expect, it } from 'vitest';
import { showControlCharacters } from './control-pictures.js';

describe('showControlCharacters', () => {
  it('pictures every C0 control but tab, and DEL; leaves everything else', () => {
    expect(showControlCharacters('\u0000a\u0001\u001b[0m\t\u000b\u000c\u001f\u007f é 😀 \u0085')).toBe(
      '\u2400a\u2401\u241b[0m\t\u240b\u240c\u241f\u2421 é 😀 \u0085',
    );
    expect(showControlCharacters('plain text')).toBe('plain text');
  });
});
