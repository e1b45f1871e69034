import { describe, expect, it } from 'vitest';
import { READ_TEXTS_MAX_CHARS, ReadTextStore } from './read-texts.js';

describe('ReadTextStore', () => {
  it('keeps the last text of each file with its hash, and forgets', () => {
    const store = new ReadTextStore();
    store.record('/a', 'one\n', 'h1');
    store.record('/a', 'two\n', 'h2');
    expect(store.get('/a')).toEqual({ text: 'two\n', hash: 'h2' });
    store.forget('/a');
    expect(store.get('/a')).toBeUndefined();
  });

  it('drops the text recorded longest ago past its character budget', () => {
    const store = new ReadTextStore();
    const half = 'x'.repeat(READ_TEXTS_MAX_CHARS / 2);
    store.record('/a', half, 'a');
    store.record('/b', half, 'b');
    store.record('/c', 'c', 'c');
    expect(store.get('/a')).toBeUndefined();
    expect(store.get('/b')?.hash).toBe('b');
    expect(store.get('/c')?.text).toBe('c');
  });
});
