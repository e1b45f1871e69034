import { describe, expect, it } from 'vitest';
import { LineIndexStore } from './line-index.js';

describe('LineIndexStore', () => {
  it('serves an index only for the same size and mtime, and forgets the least recently used', () => {
    const store = new LineIndexStore({ maxFiles: 2 });
    store.set('/a', { size: 10, mtimeMs: 5, totalLines: 3, checkpoints: [{ line: 1, offset: 0 }] });
    expect(store.get('/a', { size: 10, mtimeMs: 5 })?.totalLines).toBe(3);
    expect(store.get('/a', { size: 11, mtimeMs: 5 })).toBeUndefined();
    expect(store.get('/a', { size: 10, mtimeMs: 5 })).toBeUndefined();
    store.set('/b', { size: 1, mtimeMs: 1, totalLines: 1, checkpoints: [] });
    store.set('/c', { size: 1, mtimeMs: 1, totalLines: 1, checkpoints: [] });
    store.get('/b', { size: 1, mtimeMs: 1 });
    store.set('/d', { size: 1, mtimeMs: 1, totalLines: 1, checkpoints: [] });
    expect(store.get('/c', { size: 1, mtimeMs: 1 })).toBeUndefined();
    expect(store.get('/b', { size: 1, mtimeMs: 1 })).toBeDefined();
  });

  it('finds the nearest checkpoint at or before a line', () => {
    const store = new LineIndexStore();
    const index = store.set('/a', {
      size: 1,
      mtimeMs: 1,
      totalLines: 300,
      checkpoints: [
        { line: 1, offset: 0 },
        { line: 100, offset: 900 },
        { line: 200, offset: 1800 },
      ],
    });
    expect(index.nearest(1)).toEqual({ line: 1, offset: 0 });
    expect(index.nearest(150)).toEqual({ line: 100, offset: 900 });
    expect(index.nearest(200)).toEqual({ line: 200, offset: 1800 });
    expect(index.nearest(999)).toEqual({ line: 200, offset: 1800 });
    expect(index.checkpointCount).toBe(3);
  });
});
