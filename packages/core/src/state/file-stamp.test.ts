import { promises as fs } from 'node:fs';
import { it, rewriteKeepingMtime, SFTP_CAPABILITIES, translatedFileSystem } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { CONTENT_HASH_LIMIT_BYTES, hashBytes } from './content-hash.js';
import {
  sameStamp,
  snapshotOf,
  stampOfStats,
  stampNeedsHash,
  stampOf,
  stampOfHandle,
  unchangedSinceSettled,
  type FileStamp,
  type StampStats,
} from './file-stamp.js';
import { localFileSystem } from '../fs/local-file-system.js';

async function stamp(file: string): Promise<FileStamp> {
  const taken = await stampOf(localFileSystem, file);
  if (typeof taken === 'string') throw new Error(taken);
  return taken;
}

describe('file stamps', () => {
  it('hold the stat fields to the nanosecond and the content hash, and survive JSON', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'hello\n');
    const stats = await localFileSystem.stat(file);
    const taken = await stamp(file);
    expect(taken).toEqual({
      size: 6,
      mtimeNs: stats.mtimeNs?.toString(),
      ctimeNs: stats.ctimeNs?.toString(),
      ino: stats.ino?.toString(),
      dev: stats.dev?.toString(),
      hash: hashBytes(Buffer.from('hello\n')),
      // The clock before the stats, to the millisecond.
      seenNs: expect.stringMatching(/^[1-9]\d*000000$/),
    });
    expect(JSON.parse(JSON.stringify(taken))).toEqual(taken);
    const { seenNs, ...fields } = taken;
    expect(snapshotOf(Buffer.from('hello\n'), stats)).toEqual(fields);
    expect(snapshotOf(Buffer.from('hello\n'), stats, Number(BigInt(seenNs!) / 1_000_000n))).toEqual(taken);
  });

  it('are the same for an untouched file, and differ after a same-size rewrite with the mtime restored', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const before = await stamp(file);
    expect(sameStamp(before, await stamp(file))).toBe(true);
    await rewriteKeepingMtime(file, 'value=2\n');
    const after = await stamp(file);
    expect([after.size, after.mtimeNs]).toEqual([before.size, before.mtimeNs]);
    expect(after.ctimeNs).not.toBe(before.ctimeNs);
    expect(after.hash).not.toBe(before.hash);
    expect(sameStamp(before, after)).toBe(false);
    // Without hashes, the change time alone tells them apart.
    expect(sameStamp({ ...before, hash: undefined }, { ...after, hash: undefined })).toBe(false);
  });

  it('differ by the hash alone when every stat field agrees', () => {
    const base: FileStamp = { size: 1, mtimeNs: '1', ctimeNs: '1', ino: '1', dev: '1' };
    expect(sameStamp({ ...base, hash: 'a' }, { ...base, hash: 'b' })).toBe(false);
    expect(sameStamp({ ...base, hash: 'a' }, base)).toBe(true);
    for (const field of ['mtimeNs', 'ctimeNs', 'ino', 'dev'] as const) {
      expect(sameStamp(base, { ...base, [field]: '2' })).toBe(false);
    }
    expect(sameStamp(base, { ...base, size: 2 })).toBe(false);
  });

  it('carry no hash above the limit', async ({ workspace }) => {
    const file = await workspace.write('big.txt', 'x');
    await fs.truncate(file, CONTENT_HASH_LIMIT_BYTES + 1);
    const taken = await stamp(file);
    expect([taken.size, taken.hash]).toEqual([CONTENT_HASH_LIMIT_BYTES + 1, undefined]);
    await fs.truncate(file, CONTENT_HASH_LIMIT_BYTES);
    expect((await stamp(file)).hash).toBe(hashBytes(await fs.readFile(file)));
  });

  it('hash through an open file from offset 0, whatever was read of it before', async ({ workspace }) => {
    const content = Buffer.alloc(3 << 20, 'abc');
    const file = await workspace.write('a.txt', content);
    const handle = await localFileSystem.open(file, 'read');
    try {
      const head = Buffer.alloc(2);
      await handle.read(head, 0, 2, 5);
      expect((await stampOfHandle(handle)).hash).toBe(hashBytes(content));
      const next = Buffer.alloc(1);
      await handle.read(next, 0, 1, 2);
      expect(next.toString()).toBe('c');
    } finally {
      await handle.close();
    }
  });

  it('say why there is none', async ({ workspace }) => {
    expect(await stampOf(localFileSystem, workspace.at('missing.txt'))).toBe('missing');
    expect(await stampOf(localFileSystem, await workspace.mkdir('dir'))).toBe('not-a-file');
  });
});

describe('file stamps on a backend without change times or inodes (SFTP)', () => {
  it('leave out what the backend cannot know and carry the hash whatever the size', async ({ workspace }) => {
    const files = translatedFileSystem(workspace.root, '/virtual', { capabilities: SFTP_CAPABILITIES });
    const file = await workspace.write('big.txt', 'x');
    await fs.truncate(file, CONTENT_HASH_LIMIT_BYTES + 1);
    const taken = await stampOf(files, '/virtual/work/big.txt');
    if (typeof taken === 'string') throw new Error(taken);
    const { mtimeMs } = await fs.stat(file);
    expect(taken).toEqual({
      size: CONTENT_HASH_LIMIT_BYTES + 1,
      mtimeNs: (BigInt(Math.floor(mtimeMs / 1000)) * 1_000_000_000n).toString(),
      hash: hashBytes(await fs.readFile(file)),
    });
    expect(stampNeedsHash({ size: CONTENT_HASH_LIMIT_BYTES + 1 })).toBe(true);
    expect(snapshotOf(new Uint8Array(3), await files.stat('/virtual/work/big.txt')).hash).toBe(
      hashBytes(new Uint8Array(3)),
    );
  });

  it('compare what both stamps have', () => {
    const local = { size: 3, mtimeNs: '1000', ctimeNs: '5', ino: '7', dev: '1', hash: 'h' };
    expect(sameStamp(local, { size: 3, mtimeNs: '1000', hash: 'h' })).toBe(true);
    expect(sameStamp(local, { size: 3, mtimeNs: '1000' })).toBe(true);
    expect(sameStamp(local, { size: 3, mtimeNs: '1000', hash: 'other' })).toBe(false);
    expect(sameStamp(local, { size: 4, mtimeNs: '1000', hash: 'h' })).toBe(false);
    expect(sameStamp(local, { ...local, ino: '8' })).toBe(false);
  });
});

describe('a look settled after the last change (the racily-clean rule)', () => {
  // A file last changed at 10.003 s (a fine clock), mtime a little earlier.
  const changedNs = 10_003_456_789n;
  const stats: StampStats = {
    size: 5,
    mtimeMs: 10_001,
    mtimeNs: 10_001_000_000n,
    ctimeNs: changedNs,
    ino: 7n,
    dev: 1n,
  };
  const known = (seenNs: bigint, fields: Partial<FileStamp> = {}): FileStamp => ({
    ...stampOfStats(stats, 'h'),
    seenNs: seenNs.toString(),
    ...fields,
  });
  const later = 60_000;

  it('lets the hash be taken on trust when the look came more than a tick after the change, nothing changed since', () => {
    expect(unchangedSinceSettled(known(changedNs + 21_000_000n), stats, later)).toBe(true);
  });

  it('hashes again when the look came within a tick of the change: a second write in that tick keeps every stat', () => {
    expect(unchangedSinceSettled(known(changedNs + 5_000_000n), stats, later)).toBe(false);
    expect(unchangedSinceSettled(known(changedNs + 20_000_000n), stats, later)).toBe(false);
    // A modification time set ahead of the look (touch -d) counts as the change too.
    const ahead = { ...stats, mtimeNs: changedNs + 100_000_000n };
    expect(
      unchangedSinceSettled(
        known(changedNs + 21_000_000n, { mtimeNs: ahead.mtimeNs.toString() }),
        ahead,
        later,
      ),
    ).toBe(false);
  });

  it('asks two seconds of a change time in whole centiseconds (a file system that may keep whole seconds)', () => {
    const coarse = { ...stats, ctimeNs: 10_000_000_000n };
    const seen = (afterNs: bigint) => known(10_000_000_000n + afterNs, { ctimeNs: '10000000000' });
    expect(unchangedSinceSettled(seen(1_900_000_000n), coarse, later)).toBe(false);
    expect(unchangedSinceSettled(seen(2_100_000_000n), coarse, later)).toBe(true);
  });

  it('hashes again when any stat differs, the clock is now before the look, or a field is unknown', () => {
    const settled = known(changedNs + 1_000_000_000n);
    expect(unchangedSinceSettled(settled, stats, later)).toBe(true);
    expect(unchangedSinceSettled(settled, { ...stats, size: 6 }, later)).toBe(false);
    expect(unchangedSinceSettled(settled, { ...stats, mtimeNs: stats.mtimeNs! + 1n }, later)).toBe(false);
    expect(unchangedSinceSettled(settled, { ...stats, ctimeNs: changedNs + 1n }, later)).toBe(false);
    expect(unchangedSinceSettled(settled, { ...stats, ino: 8n }, later)).toBe(false);
    expect(unchangedSinceSettled(settled, { ...stats, dev: 2n }, later)).toBe(false);
    // The clock set back since the look: a later write may be given the same times again.
    expect(unchangedSinceSettled(settled, stats, 10_500)).toBe(false);
    expect(unchangedSinceSettled({ ...settled, hash: undefined }, stats, later)).toBe(false);
    expect(unchangedSinceSettled({ ...settled, seenNs: undefined }, stats, later)).toBe(false);
    // SFTP: no change time, no inode.
    const sftp = { size: 5, mtimeMs: 10_000 };
    expect(
      unchangedSinceSettled(
        { size: 5, mtimeNs: '10000000000', hash: 'h', seenNs: '60000000000' },
        sftp,
        later,
      ),
    ).toBe(false);
  });

  it('is no part of what tells two versions apart', () => {
    expect(sameStamp(known(changedNs + 1n), known(changedNs + 9_000_000_000n))).toBe(true);
  });

  it('is recorded only with a change time and an inode', () => {
    expect(stampOfStats(stats, 'h', 12_345.6).seenNs).toBe('12345000000');
    expect(stampOfStats({ size: 5, mtimeMs: 10_000 }, 'h', 12_345).seenNs).toBeUndefined();
  });
});
