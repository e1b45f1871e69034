import { describe, expect, it } from 'vitest';
import { ParserChecker } from './parser-checker.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('what the parser checker remembers of a file', () => {
  it('knows the text of exactly the bytes it last checked, and of no others', async () => {
    const checker = new ParserChecker();
    const text = 'export const a = 1;\n';
    const bytes = encode(text);
    await checker.check('/w/a.ts', text, 'typescript', 1_000, bytes);
    expect(checker.knownText('/w/a.ts', encode(text))).toBe(text);
    expect(checker.knownText('/w/a.ts', encode('export const a = 2;\n'))).toBeUndefined();
    expect(checker.knownText('/w/b.ts', encode(text))).toBeUndefined();
  });

  it('keeps its own copy of the bytes, so a caller reusing its buffer cannot make it claim other text', async () => {
    const checker = new ParserChecker();
    const text = 'export const a = 1;\n';
    const bytes = encode(text);
    await checker.check('/w/a.ts', text, 'typescript', 1_000, bytes);
    bytes.set(encode('2'), text.indexOf('1'));
    expect(checker.knownText('/w/a.ts', bytes)).toBeUndefined();
  });

  it('forgets the bytes once the file is checked with text given without them', async () => {
    const checker = new ParserChecker();
    await checker.check('/w/a.ts', 'let a = 1;\n', 'typescript', 1_000, encode('let a = 1;\n'));
    await checker.check('/w/a.ts', 'let a = 2;\n', 'typescript', 1_000);
    expect(checker.knownText('/w/a.ts', encode('let a = 1;\n'))).toBeUndefined();
    expect(checker.knownText('/w/a.ts', encode('let a = 2;\n'))).toBeUndefined();
  });
});
