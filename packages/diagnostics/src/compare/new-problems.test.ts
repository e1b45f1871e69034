import { describe, expect, it } from 'vitest';
import type { Problem } from '../problem.js';
import { compareProblems } from './new-problems.js';

const at = (line: number, column: number, key: string): Problem => ({
  line,
  column,
  severity: 'error',
  message: key,
  key,
});

describe('which problems a change introduced', () => {
  it('a problem that only moved with the lines above it is old', () => {
    const before = 'a\nbad\nc\n';
    const after = 'new\na\nbad\nc\n';
    const result = compareProblems([at(2, 1, 'x')], [at(3, 1, 'x')], before, after);
    expect(result).toEqual({ added: [], kept: [at(3, 1, 'x')], fixed: 0 });
  });

  it('of two problems with the same key, the one on the changed lines is new', () => {
    const before = 'bad\nok\n';
    const after = 'bad\nbad\n';
    const result = compareProblems([at(1, 1, 'x')], [at(1, 1, 'x'), at(2, 1, 'x')], before, after);
    expect(result.added).toEqual([at(2, 1, 'x')]);
  });

  it('an old problem whose place the parser moved is still matched by its key', () => {
    const result = compareProblems([at(10, 1, 'eof')], [at(12, 4, 'eof')], 'a\n', 'a\nb\nc\n');
    expect(result.added).toEqual([]);
  });

  it('counts the old problems that are gone as fixed', () => {
    const result = compareProblems([at(1, 1, 'x'), at(2, 1, 'y')], [at(2, 1, 'y')], 'a\nb\n', 'A\nb\n');
    expect(result).toEqual({ added: [], kept: [at(2, 1, 'y')], fixed: 1 });
  });
});
