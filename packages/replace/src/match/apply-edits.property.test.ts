import {
  decodeText,
  encodeChange,
  normalizeLineEndings as normalizeLineBreaks,
} from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { applyEdits } from './apply-edits.js';

/** Applies one edit to a file holding `raw` (CRLF its dominant ending); `content` is what the file then holds. */
function applyToFile(raw: string, edit: { old: string; new: string; replace_all: boolean }) {
  const decoded = decodeText(Buffer.from(raw, 'utf8'));
  if (!decoded.ok) throw new Error('not text');
  const file = { ...decoded.decoded, format: { ...decoded.decoded.format, lineEnding: '\r\n' as const } };
  const result = applyEdits(file, [edit]);
  if (!result.ok) return result;
  const bytes = encodeChange(file, Buffer.from(raw, 'utf8'), result.replacements);
  return { ...result, content: Buffer.from(bytes).toString('utf8') };
}

// A small deterministic generator (mulberry32), so a failure always reproduces.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'beta', 'gamma', '  ', '\t', '“q”', 'don’t', '$&', 'é', '中'];
const BREAKS = ['\n', '\r\n', '\r'];

function randomFile(next: () => number): string {
  let text = '';
  const lines = 5 + Math.floor(next() * 20);
  for (let line = 0; line < lines; line += 1) {
    const words = Math.floor(next() * 5);
    for (let word = 0; word < words; word += 1) text += `${WORDS[Math.floor(next() * WORDS.length)]} `;
    text += `<L${line}>`;
    text += BREAKS[Math.floor(next() * BREAKS.length)];
  }
  return text;
}

describe('every byte outside the replaced region is unchanged', () => {
  it('holds for random exact and line-ending edits on mixed-ending files', () => {
    const next = random(20261121);
    for (let round = 0; round < 300; round += 1) {
      const raw = randomFile(next);
      // A unique anchor: the line label `<L{n}>` with its following text up to the next label.
      const line = Math.floor(next() * 5);
      const start = raw.indexOf(`<L${line}>`);
      const following = raw.indexOf(`<L${line + 1}>`);
      const stop = following === -1 ? raw.length : following;
      const old = normalizeLineBreaks(raw.slice(start, stop));
      const replacement = next() < 0.2 ? '' : `NEW${round}\n${next() < 0.5 ? 'x' : ''}`;
      const result = applyToFile(raw, { old, new: replacement, replace_all: false });
      if (!result.ok) throw new Error(`round ${round}: ${JSON.stringify(result)}`);
      const rawEnd = stop;
      expect(result.content.startsWith(raw.slice(0, start))).toBe(true);
      expect(result.content.endsWith(raw.slice(rawEnd))).toBe(true);
      if (replacement !== '') {
        const middle = result.content.slice(start, result.content.length - (raw.length - rawEnd));
        expect(normalizeLineBreaks(middle)).toBe(replacement);
      }
    }
  });
});
