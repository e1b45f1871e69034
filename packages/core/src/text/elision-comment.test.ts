import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { introducedElision, isElisionComment } from './elision-comment.js';
import { LineDiff } from '../diff/line-diff.js';

describe('isElisionComment', () => {
  it.each([
    '// ... rest of the file unchanged ...',
    '    // ... existing code ...',
    '# rest of the code remains the same',
    '/* other methods unchanged */',
    '<!-- remaining content omitted -->',
    '-- rest of the query unchanged',
    '; previous definitions unchanged',
    '% rest of the document unchanged ...',
    '{/* ... existing components ... */}',
    '(* rest of the module unchanged *)',
    '// ...',
    '# (unchanged)',
    '  * ... other fields omitted ...',
    "' rest of the code is the same",
    '// … remaining test cases …',
    // "The rest" alone names what was left out (docs/differences.md's lazy overwrite).
    '// ... rest unchanged ...',
    '# rest omitted',
    '/* the remainder is the same */',
  ])('%s', (line) => expect(isElisionComment(line)).toBe(true));

  it.each([
    '// Remaining items are processed in the next loop',
    '# Read the rest of the file in chunks',
    'rest = remaining_code()  # count',
    'const other = existingCode;',
    '// TODO: handle the previous state',
    '# Build the existing index before the merge',
    '// rest until the timer fires, unchanged state is kept',
    '// the rest of the loop runs once',
    '',
    '//',
  ])('not: %s', (line) => expect(isElisionComment(line)).toBe(false));
});

describe('introducedElision', () => {
  const old = 'def a():\n    return 1\n\ndef b():\n    return 2\n';
  it('finds a new elision comment that stands in for removed lines', () => {
    expect(introducedElision(old, 'def a():\n    return 10\n\n# ... rest of the file unchanged ...\n')).toBe(
      '# ... rest of the file unchanged ...',
    );
  });

  it('ignores one the file already had, and one added without removing anything', () => {
    const withComment = `${old}# ... rest of the file unchanged ...\n`;
    expect(
      introducedElision(withComment, 'def a():\n    return 1\n# ... rest of the file unchanged ...\n'),
    ).toBe(undefined);
    expect(introducedElision(old, `${old}# ... existing code ...\n`)).toBe(undefined);
  });

  it('finds the same line as looking at every trimmed line in turn, whatever the blanks around the lines', () => {
    // It pins the walk over line feeds too: a line it passes over for its first character must never be one of these.
    // The plain way: every line trimmed and checked, the first one that is new to the file wins.
    const everyLine = (oldText: string, newText: string, file: string): string | undefined => {
      const newLines = newText.split('\n').map((line) => line.trim());
      const added = newLines.find((line) => isElisionComment(line) && !file.includes(line));
      if (added === undefined) return undefined;
      const kept = new Set(newLines);
      return oldText.split('\n').some((line) => line.trim().length > 0 && !kept.has(line.trim()))
        ? added
        : undefined;
    };
    const blank = fc.constantFrom('', ' ', '\t', '\r', '\v', '\u00a0', '\u2028', '\u3000', '\ufeff', '  \t');
    const body = fc.constantFrom(
      '// ... rest of the file unchanged ...',
      '# ... existing code ...',
      'REM rest of the script unchanged',
      'remove(x)',
      '-- same as before',
      '<!-- remaining content omitted -->',
      "' rest of the code is the same",
      '{/* ... existing components ... */}',
      '; previous definitions unchanged',
      '% rest of the document unchanged ...',
      '* ... other fields omitted ...',
      '/* other methods unchanged */',
      '(* rest of the module unchanged *)',
      '// a real comment',
      '# see the notes etc',
      '// unchanged',
      '-- \u2026',
      'x = [...rest]',
      'x = 1',
      '(a)',
      '',
    );
    const line = fc.tuple(blank, body, blank).map((parts) => parts.join(''));
    const text = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(text, text, fc.boolean(), (oldText, newText, withFile) => {
        const file = withFile ? oldText : 'x = 1';
        expect(introducedElision(oldText, newText, file)).toBe(everyLine(oldText, newText, file));
        // Looking only between the lines a whole-file rewrite shares at both ends finds the same.
        if (withFile) {
          const lines = new LineDiff(oldText, newText, 1000);
          expect(introducedElision(oldText, newText, file, lines.shared.newMiddle)).toBe(
            everyLine(oldText, newText, file),
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
