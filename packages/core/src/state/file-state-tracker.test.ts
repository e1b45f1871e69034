import { promises as fs } from 'node:fs';
import { it, rewriteKeepingMtime, SFTP_CAPABILITIES, translatedFileSystem } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { CONTENT_HASH_LIMIT_BYTES, hashBytes, hashFile } from './content-hash.js';
import { snapshotOf, stampOf } from './file-stamp.js';
import { FileStateTracker } from './file-state-tracker.js';
import { readStateError } from './read-state-error.js';
import { localFileSystem } from '../fs/local-file-system.js';

async function recordRead(tracker: FileStateTracker, file: string): Promise<void> {
  const stamp = await stampOf(localFileSystem, file);
  if (typeof stamp === 'string') throw new Error(stamp);
  tracker.recordRead(file, stamp, true);
}

describe('FileStateTracker', () => {
  it('says not-read for a file the session never read', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'hello');
    expect(await new FileStateTracker(localFileSystem).check(file)).toBe('not-read');
  });

  it('is ok after a read, after a touch, and after a save of the same bytes', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('a.txt', 'hello');
    await recordRead(tracker, file);
    expect(await tracker.check(file)).toBe('ok');
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(file, later, later);
    expect(await tracker.check(file)).toBe('ok');
    await fs.rm(file);
    await fs.writeFile(file, 'hello');
    expect(await tracker.check(file)).toBe('ok');
  });

  it('says modified when the content changed, with or without the same size', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('a.txt', 'hello');
    await recordRead(tracker, file);
    await fs.writeFile(file, 'HELLO');
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(file, later, later);
    expect(await tracker.check(file)).toBe('modified');
    await recordRead(tracker, file);
    await fs.writeFile(file, 'hello world');
    expect(await tracker.check(file)).toBe('modified');
  });

  it('says modified after a same-size rewrite that restored the mtime', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('a.txt', 'value=1\n');
    await recordRead(tracker, file);
    await rewriteKeepingMtime(file, 'value=2\n');
    expect(await tracker.check(file)).toBe('modified');
  });

  it('judges a file too large to hash by its stamp alone', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('big.txt', 'x');
    // A sparse file: the size is what matters, and no byte of it is ever written.
    await fs.truncate(file, CONTENT_HASH_LIMIT_BYTES + 1);
    await recordRead(tracker, file);
    expect(tracker.get(file)?.hash).toBeUndefined();
    expect(await tracker.check(file)).toBe('ok');
    // Even the same bytes under a new time count as a change: there is no hash to prove otherwise.
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(file, later, later);
    expect(await tracker.check(file)).toBe('modified');
  });

  it('says modified when the file disappeared, and ok after recording a write', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('a.txt', 'x');
    await recordRead(tracker, file);
    await fs.rm(file);
    expect(await tracker.check(file)).toBe('modified');
    await fs.writeFile(file, 'new');
    tracker.recordWrite(file, snapshotOf(new TextEncoder().encode('new'), await localFileSystem.stat(file)));
    expect(await tracker.check(file)).toBe('ok');
    expect(tracker.get(file)?.complete).toBe(true);
    tracker.forget(file);
    expect(await tracker.check(file)).toBe('not-read');
  });

  it('says modified when the path is no longer a regular file', async ({ workspace }) => {
    const tracker = new FileStateTracker(localFileSystem);
    const file = await workspace.write('a.txt', 'x');
    await recordRead(tracker, file);
    await fs.rm(file);
    await fs.mkdir(file);
    expect(await tracker.check(file)).toBe('modified');
    expect(tracker.checkStamp(file, 'not-a-file')).toBe('modified');
  });

  it('keeps sessions apart', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'x');
    const first = new FileStateTracker(localFileSystem);
    await recordRead(first, file);
    expect(await new FileStateTracker(localFileSystem).check(file)).toBe('not-read');
  });
});

describe('hashes', () => {
  it('hashes bytes and files alike', async ({ workspace }) => {
    const file = workspace.at('a.bin');
    const data = new Uint8Array(100_000).map((_, i) => i % 251);
    await fs.writeFile(file, data);
    expect(await hashFile(localFileSystem, file)).toBe(hashBytes(data));
    expect(hashBytes(new Uint8Array([1]))).not.toBe(hashBytes(new Uint8Array([2])));
  });
});

describe('readStateError', () => {
  it('words both statuses exactly', () => {
    expect(readStateError('src/a.ts', 'not-read')).toEqual({
      isError: true,
      output: '',
      message: '`src/a.ts` has not been read yet. Read it first before writing to it.',
      brief: 'File not read',
      display: [{ type: 'brief', text: 'File not read' }],
    });
    expect(readStateError('src/a.ts', 'modified')).toEqual({
      isError: true,
      output: '',
      message:
        '`src/a.ts` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
      display: [{ type: 'brief', text: 'File modified' }],
    });
  });
});

describe('FileStateTracker on a backend without change times or inodes (SFTP)', () => {
  it('judges a file of any size by its content and size: a same-size rewrite in the same second shows', async ({
    workspace,
  }) => {
    const files = translatedFileSystem(workspace.root, '/virtual', { capabilities: SFTP_CAPABILITIES });
    const tracker = new FileStateTracker(files);
    const file = await workspace.write('big.txt', 'x');
    await fs.truncate(file, CONTENT_HASH_LIMIT_BYTES + 1);
    const virtual = '/virtual/work/big.txt';
    const read = await stampOf(files, virtual);
    if (typeof read === 'string') throw new Error(read);
    tracker.recordRead(virtual, read, true);
    // Touched only: the same bytes, so unchanged (the hash decides, not the time).
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(file, later, later);
    expect(await tracker.check(virtual)).toBe('ok');
    // One byte changed in place, the size and whole-second time kept: only the hash can tell.
    await rewriteKeepingMtime(
      file,
      Buffer.concat([Buffer.from('y'), await fs.readFile(file)]).subarray(0, CONTENT_HASH_LIMIT_BYTES + 1),
    );
    expect(await tracker.check(virtual)).toBe('modified');
  });
});
