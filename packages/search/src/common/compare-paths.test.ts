import { describe, expect, it } from 'vitest';
import { componentWiseKey, sortByPathComponentWise, sortPathsComponentWise } from './compare-paths.js';

describe('component-wise path order', () => {
  it('compares segment by segment, shorter segment first', () => {
    const paths = ['src/main.py', 'a-b/x', 'src/main/app.py', 'a/x', 'b', 'a', 'A/z'];
    const expected = ['A/z', 'a', 'a/x', 'a-b/x', 'b', 'src/main/app.py', 'src/main.py'];
    expect(sortPathsComponentWise(paths)).toEqual(expected);
    const byKey = (a: string, b: string) => (componentWiseKey(a) < componentWiseKey(b) ? -1 : 1);
    expect([...paths].sort(byKey)).toEqual(expected);
    const entries = paths.map((path, index) => ({ path, index }));
    const sorted = sortByPathComponentWise(entries, (entry) => entry.path);
    expect(sorted.map((entry) => entry.path)).toEqual(expected);
  });
});
