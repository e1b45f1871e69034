import { describe, expect, it } from 'vitest';
import { mergeThreeWay } from './merge-three-way.js';

const lines = (...items: string[]) => `${items.join('\n')}\n`;

describe('mergeThreeWay', () => {
  it('takes a change only one side made, from either side', () => {
    const base = lines('a', 'b', 'c', 'd', 'e');
    expect(mergeThreeWay(base, lines('a', 'B', 'c', 'd', 'e'), lines('a', 'b', 'c', 'd', 'E'), '1')).toEqual({
      text: lines('a', 'B', 'c', 'd', 'E'),
      conflicts: 0,
    });
  });

  it('takes the same change made by both sides once', () => {
    const base = lines('a', 'b', 'c');
    expect(mergeThreeWay(base, lines('a', 'X', 'c'), lines('a', 'X', 'c'), '1')).toEqual({
      text: lines('a', 'X', 'c'),
      conflicts: 0,
    });
  });

  it('marks lines both sides changed differently, and only those', () => {
    const base = lines('a', 'b', 'c', 'd', 'e');
    expect(
      mergeThreeWay(base, lines('a', 'ours', 'c', 'd', 'e'), lines('a', 'theirs', 'c', 'd', 'E'), '4'),
    ).toEqual({
      text: lines(
        'a',
        '<<<<<<< checkpoint 4',
        'ours',
        '=======',
        'theirs',
        ">>>>>>> user's version",
        'c',
        'd',
        'E',
      ),
      conflicts: 1,
    });
  });

  it('marks two different insertions at the same place', () => {
    expect(mergeThreeWay(lines('a'), lines('a', 'x'), lines('a', 'y'), '2')).toEqual({
      text: lines('a', '<<<<<<< checkpoint 2', 'x', '=======', 'y', ">>>>>>> user's version"),
      conflicts: 1,
    });
  });

  it('keeps a deletion on one side and an edit far from it on the other', () => {
    const base = lines('a', 'b', 'c', 'd', 'e', 'f');
    expect(
      mergeThreeWay(base, lines('a', 'c', 'd', 'e', 'f'), lines('a', 'b', 'c', 'd', 'e', 'F'), '1'),
    ).toEqual({
      text: lines('a', 'c', 'd', 'e', 'F'),
      conflicts: 0,
    });
  });
});
