import { describe, expect, it } from 'vitest';
import { introducedElision, isElisionComment } from './elision-comment.js';

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
  ])('%s', (line) => expect(isElisionComment(line)).toBe(true));

  it.each([
    '// Remaining items are processed in the next loop',
    '# Read the rest of the file in chunks',
    'rest = remaining_code()  # count',
    'const other = existingCode;',
    '// TODO: handle the previous state',
    '# Build the existing index before the merge',
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
});
