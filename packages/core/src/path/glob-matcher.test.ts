import { describe, expect, it } from 'vitest';
import { compileGlobs } from './glob-matcher.js';

describe('compileGlobs', () => {
  it('never matches with no patterns', () => {
    expect(compileGlobs([], false)('/anything')).toBe(false);
  });

  it('matches when any pattern matches, dot files included', () => {
    const test = compileGlobs(['**/.git/**', '*.pem'], false);
    expect(test('/repo/.git/HEAD')).toBe(true);
    expect(test('/repo/.git')).toBe(true);
    expect(test('server.pem')).toBe(true);
    expect(test('/repo/src/index.ts')).toBe(false);
  });

  it('honours case folding only when asked', () => {
    expect(compileGlobs(['*.PEM'], false)('key.pem')).toBe(false);
    expect(compileGlobs(['*.PEM'], true)('key.pem')).toBe(true);
  });
});
