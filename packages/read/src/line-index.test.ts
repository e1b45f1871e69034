import { CONTENT_HASH_LIMIT_BYTES, type FileStamp, type TextEncoding } from '@kimi-tools/core/toolkit';
import { describe, expect, it } from 'vitest';
import { LineIndexStore } from './line-index.js';

const UTF8: TextEncoding = { encoding: 'utf-8', bom: false };

/** A version its stats tell apart (over the hash limit, with change time and inode), `extra` bytes past the limit. */
const version = (extra: number, fields: Partial<FileStamp> = {}): FileStamp => ({
  size: CONTENT_HASH_LIMIT_BYTES + extra,
  mtimeNs: '5000000001',
  ctimeNs: '5000000002',
  ino: '7',
  dev: '8',
  ...fields,
});

describe('LineIndexStore', () => {
  it('serves an index only for the same file version, and forgets the least recently used', () => {
    const store = new LineIndexStore({ maxFiles: 2 });
    store.set('/a', {
      version: version(10),
      encoding: UTF8,
      totalLines: 3,
      checkpoints: [{ line: 1, offset: 0 }],
    });
    expect(store.get('/a', version(10))?.totalLines).toBe(3);
    expect(store.get('/a', version(11))).toBeUndefined();
    expect(store.get('/a', version(10))).toBeUndefined();
    store.set('/b', { version: version(1), encoding: UTF8, totalLines: 1, checkpoints: [] });
    store.set('/c', { version: version(1), encoding: UTF8, totalLines: 1, checkpoints: [] });
    store.get('/b', version(1));
    store.set('/d', { version: version(1), encoding: UTF8, totalLines: 1, checkpoints: [] });
    expect(store.get('/c', version(1))).toBeUndefined();
    expect(store.get('/b', version(1))).toBeDefined();
  });

  it('treats a new change time, inode or device as another version, even with size and mtime kept', () => {
    for (const field of ['mtimeNs', 'ctimeNs', 'ino', 'dev'] as const) {
      const store = new LineIndexStore();
      store.set('/a', { version: version(10), encoding: UTF8, totalLines: 3, checkpoints: [] });
      expect(store.get('/a', version(10, { [field]: '9' }))).toBeUndefined();
      expect(store.size).toBe(0);
    }
  });

  it('keeps no index of a version whose stats cannot vouch for its bytes, but gives it to the read that made it', () => {
    const store = new LineIndexStore();
    const small: FileStamp = { ...version(0), size: 10 };
    const { ctimeNs: _ctime, ...noChangeTime } = version(10);
    const { ino: _ino, ...noInode } = version(10);
    for (const unvouched of [small, noChangeTime, noInode]) {
      const index = store.set('/a', { version: unvouched, encoding: UTF8, totalLines: 3, checkpoints: [] });
      expect(index.totalLines).toBe(3);
      expect(store.get('/a', unvouched)).toBeUndefined();
      expect(store.size).toBe(0);
    }
  });

  it('finds the nearest checkpoint at or before a line', () => {
    const store = new LineIndexStore();
    const index = store.set('/a', {
      version: version(1),
      encoding: UTF8,
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
