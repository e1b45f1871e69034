import { promises as fs } from 'node:fs';
import { it, rewriteKeepingMtime, SFTP_CAPABILITIES, translatedFileSystem } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { CONTENT_HASH_LIMIT_BYTES, hashBytes } from './content-hash.js';
import {
  sameStamp,
  snapshotOf,
  stampNeedsHash,
  stampOf,
  stampOfHandle,
  type FileStamp,
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
    });
    expect(JSON.parse(JSON.stringify(taken))).toEqual(taken);
    expect(snapshotOf(Buffer.from('hello\n'), stats)).toEqual(taken);
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
