import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isShellVariableName, shellQuote } from './shell-quote.js';

const run = promisify(execFile);

describe('shellQuote', () => {
  test('a POSIX shell reads back exactly the word quoted, whatever it holds', async () => {
    // Any text but NUL, which no argument can hold; full Unicode and the characters a shell treats specially.
    const word = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom(...`'"\\$\`!*?[]{}~#&;|<>()\n\t =%-`.split('')) }),
    );
    await fc.assert(
      fc.asyncProperty(word, async (text) => {
        const { stdout } = await run('sh', ['-c', `printf '%s' ${shellQuote(text)}`], { encoding: 'buffer' });
        expect(stdout.toString('utf8')).toBe(text);
      }),
      { numRuns: 60 },
    );
  });
});

describe('isShellVariableName', () => {
  test('takes a letter or underscore followed by letters, digits and underscores', () => {
    expect(['PATH', '_x', 'a1_B'].map(isShellVariableName)).toEqual([true, true, true]);
    expect(['', '1A', 'A-B', 'A=B', 'A B', 'Ä'].map(isShellVariableName)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
