import { promises as fs } from 'node:fs';
import { it, rewriteKeepingMtime } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { hashBytes } from './content-hash.js';
import { stampOf } from './file-stamp.js';
import { readStampedFile } from './read-stamped.js';
import type { FileSystem, OpenFile } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';

describe('readStampedFile', () => {
  it('reads the whole file with the stamp stampOf gives it', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'hello\n');
    const read = await readStampedFile(localFileSystem, file);
    if (typeof read === 'string') throw new Error(read);
    expect(read.bytes.toString()).toBe('hello\n');
    const stamp = await stampOf(localFileSystem, file);
    if (typeof stamp === 'string') throw new Error(stamp);
    // The same, but for when each look was made.
    expect({ ...read.stamp, seenNs: undefined }).toEqual({ ...stamp, seenNs: undefined });
  });

  it('gives a same-size rewrite that keeps the mtime a stamp of its own (its hash)', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'value=1\n');
    const before = await readStampedFile(localFileSystem, file);
    await rewriteKeepingMtime(file, 'value=2\n');
    const after = await readStampedFile(localFileSystem, file);
    if (typeof before === 'string' || typeof after === 'string') throw new Error('not read');
    expect(after.stamp.size).toBe(before.stamp.size);
    expect(after.stamp.mtimeNs).toBe(before.stamp.mtimeNs);
    expect(after.stamp.hash).not.toBe(before.stamp.hash);
  });

  it('takes the known hash on trust only when the file is unchanged since a look settled after its last change', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'hello\n');
    // A look more than a tick after the change (the bytes are not hashed: a made-up hash shows it).
    await new Promise((resolve) => setTimeout(resolve, 40));
    const settled = await stampOf(localFileSystem, file);
    if (typeof settled === 'string') throw new Error(settled);
    const trusted = await readStampedFile(localFileSystem, file, { ...settled, hash: 'known' });
    if (typeof trusted === 'string') throw new Error(trusted);
    expect(trusted.stamp).toEqual({ ...settled, hash: 'known', seenNs: trusted.stamp.seenNs });
    // The same look, had it come within a tick of the change: hashed.
    const racy = { ...settled, hash: 'known', seenNs: (BigInt(settled.ctimeNs!) + 5_000_000n).toString() };
    const hashed = await readStampedFile(localFileSystem, file, racy);
    if (typeof hashed === 'string') throw new Error(hashed);
    expect(hashed.stamp.hash).toBe(settled.hash);
    // Changed since (same size, the mtime put back): the change time differs, and the bytes are hashed.
    await rewriteKeepingMtime(file, 'HELLO\n');
    const changed = await readStampedFile(localFileSystem, file, { ...settled, hash: 'known' });
    if (typeof changed === 'string') throw new Error(changed);
    expect(changed.bytes.toString()).toBe('HELLO\n');
    expect(changed.stamp.hash).not.toBe('known');
    expect(changed.stamp.hash).not.toBe(settled.hash);
  });

  it('hashes what it read when the file changed while it was read, the stats before agreeing with the known stamp', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'hello\n');
    await new Promise((resolve) => setTimeout(resolve, 40));
    const settled = await stampOf(localFileSystem, file);
    if (typeof settled === 'string') throw new Error(settled);
    // A backend whose first read of an open file finds it rewritten since the open's stat (same size and mtime).
    const rewriting: FileSystem = {
      ...localFileSystem,
      open: async (filePath, mode) => {
        const handle = await localFileSystem.open(filePath, mode);
        let first = true;
        return new Proxy(handle, {
          get(target, key) {
            if (key === 'read') {
              return async (...args: Parameters<OpenFile['read']>) => {
                if (first) await rewriteKeepingMtime(file, 'HELLO\n');
                first = false;
                return target.read(...args);
              };
            }
            const value: unknown = Reflect.get(target, key);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    };
    const read = await readStampedFile(rewriting, file, { ...settled, hash: 'known' });
    if (typeof read === 'string') throw new Error(read);
    expect(read.bytes.toString()).toBe('HELLO\n');
    expect(read.stamp.hash).toBe(hashBytes(Buffer.from('HELLO\n')));
  });

  it('says why it read nothing', async ({ workspace }) => {
    await fs.mkdir(workspace.at('dir'));
    expect(await readStampedFile(localFileSystem, workspace.at('missing.txt'))).toBe('missing');
    expect(await readStampedFile(localFileSystem, workspace.at('dir'))).toBe('not-a-file');
  });
});
