import { promises as fs } from 'node:fs';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { handleHoldsExactly, readHandleConsuming, readHandleRange, readHandleUpTo } from './read-bytes.js';
import { readFileUpTo } from './regular-file.js';
import { localFileSystem } from './local-file-system.js';

describe('readFileUpTo', () => {
  it('reads a file shorter than the limit whole, and a longer one up to the limit', async ({ workspace }) => {
    const file = await workspace.write('a.bin', Buffer.from('0123456789'));
    expect((await readFileUpTo(localFileSystem, file, 100)).toString()).toBe('0123456789');
    expect((await readFileUpTo(localFileSystem, file, 4)).toString()).toBe('0123');
    expect((await readFileUpTo(localFileSystem, file, 10)).toString()).toBe('0123456789');
  });

  it('reads an empty file as no bytes', async ({ workspace }) => {
    const file = await workspace.write('empty', '');
    expect((await readFileUpTo(localFileSystem, file, 10)).length).toBe(0);
  });
});

describe('readFileUpTo as ReadMediaFile uses it (limit + 1 bytes)', () => {
  it('reads a file within the limit whole', async ({ workspace }) => {
    const file = await workspace.write('a.bin', Uint8Array.from([1, 2, 3, 4, 5]));
    expect([...(await readFileUpTo(localFileSystem, file, 5 + 1))]).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops one byte past the limit, so the caller can tell the file is too large', async ({ workspace }) => {
    const file = await workspace.write('b.bin', new Uint8Array(100).fill(7));
    const bytes = await readFileUpTo(localFileSystem, file, 10 + 1);
    expect(bytes.length).toBe(11);
  });
});

describe('readHandleUpTo', () => {
  it('grows past a size guess that was too small (a file that grew since its stat)', async ({
    workspace,
  }) => {
    const file = workspace.at('grown.bin');
    const content = Buffer.alloc(70_000, 7);
    await fs.writeFile(file, content);
    const handle = await fs.open(file, 'r');
    try {
      expect((await readHandleUpTo(handle, 100_000, 10)).equals(content)).toBe(true);
      expect((await readHandleUpTo(handle, 65_536, 10)).equals(content.subarray(0, 65_536))).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('readHandleConsuming', () => {
  /** The whole of `file` read by readHandleConsuming with `expected` as its size guess, and what its consumer saw. */
  async function consumed(file: string, expected: number, trickle = false) {
    const handle = await localFileSystem.open(file, 'read');
    // One byte short of what is asked, at most 300 KiB: every chunk is put together from several reads.
    const reader = trickle
      ? {
          read: (buffer: Buffer, offset: number, length: number, position: number) =>
            handle.read(buffer, offset, Math.max(1, Math.min(length - 1, 300 << 10)), position),
        }
      : handle;
    const seen: Buffer[] = [];
    try {
      const bytes = await readHandleConsuming(
        reader,
        expected,
        () => (piece) => seen.push(Buffer.from(piece)),
      );
      return { bytes, seen: Buffer.concat(seen), pieces: seen.length };
    } finally {
      await handle.close();
    }
  }

  it('reads a file of several chunks whole, its consumer seeing every byte once and in order', async ({
    workspace,
  }) => {
    // Five and a half chunks of 1 MiB, each byte telling where it stands.
    const content = Buffer.alloc(11 << 19);
    for (let at = 0; at < content.length; at++) content[at] = (at * 7 + (at >> 12)) & 0xff;
    const file = await workspace.write('big.bin', content);
    for (const trickle of [false, true]) {
      const read = await consumed(file, content.length + 1, trickle);
      expect(read.bytes.equals(content)).toBe(true);
      expect(read.seen.equals(content)).toBe(true);
    }
  });

  it('stops at the end of a file shorter than expected, the chunks read past it unseen', async ({
    workspace,
  }) => {
    const content = Buffer.alloc((3 << 20) + 5, 3);
    const file = await workspace.write('shrunk.bin', content);
    const read = await consumed(file, 9 << 20);
    expect(read.bytes.equals(content)).toBe(true);
    expect(read.seen.equals(content)).toBe(true);
    expect(read.pieces).toBe(4);
  });

  it('reads on past a size guess that was too small (a file that grew since its stat)', async ({
    workspace,
  }) => {
    const content = Buffer.alloc((2 << 20) + 70_000, 5);
    content.fill(6, 1 << 20);
    const file = await workspace.write('grown.bin', content);
    for (const expected of [10, (1 << 20) + 1, 2 << 20]) {
      const read = await consumed(file, expected, expected === 10);
      expect(read.bytes.equals(content)).toBe(true);
      expect(read.seen.equals(content)).toBe(true);
    }
  });

  it('reads an empty file as no bytes, and a consumer that throws ends the read with its error', async ({
    workspace,
  }) => {
    const empty = await workspace.write('empty', '');
    const read = await consumed(empty, 1);
    expect(read.bytes.length).toBe(0);
    expect(read.seen.length).toBe(0);
    const file = await workspace.write('a.bin', Buffer.alloc(3 << 20, 1));
    const handle = await localFileSystem.open(file, 'read');
    try {
      await expect(
        readHandleConsuming(handle, (3 << 20) + 1, () => () => {
          throw new Error('consumer failed');
        }),
      ).rejects.toThrow('consumer failed');
    } finally {
      await handle.close();
    }
  });
});

describe('readHandleRange', () => {
  it('reads exactly the range asked, across short reads, and refuses a file that ends before it', async ({
    workspace,
  }) => {
    const file = await workspace.write('range.bin', Buffer.from('0123456789'));
    const handle = await localFileSystem.open(file, 'read');
    // One byte per read: the range is put together from short reads.
    const trickle = {
      read: (buffer: Buffer, offset: number, _length: number, position: number) =>
        handle.read(buffer, offset, 1, position),
    };
    try {
      expect((await readHandleRange(trickle, 3, 7)).toString()).toBe('3456');
      expect((await readHandleRange(handle, 5, 5)).length).toBe(0);
      await expect(readHandleRange(handle, 8, 12)).rejects.toThrow(
        'The file ended at byte 10 while it was edited.',
      );
    } finally {
      await handle.close();
    }
  });
});

describe('handleHoldsExactly', () => {
  it('compares a file over several chunks, to its very end, across short reads', async ({ workspace }) => {
    // Two and a half chunks of 1 MiB, the last different from the first two.
    const content = Buffer.alloc(5 << 19, 7);
    content.fill(9, 2 << 20);
    const file = await workspace.write('big.bin', content);
    const handle = await localFileSystem.open(file, 'read');
    const trickle = {
      read: (buffer: Buffer, offset: number, length: number, position: number) =>
        handle.read(buffer, offset, Math.min(length, 1000), position),
    };
    const changedLast = Buffer.from(content);
    changedLast[changedLast.length - 1] = 8;
    try {
      expect(await handleHoldsExactly(handle, content)).toBe(true);
      expect(await handleHoldsExactly(trickle, content)).toBe(true);
      expect(await handleHoldsExactly(trickle, content.subarray(0, 300_000))).toBe(false);
      expect(await handleHoldsExactly(handle, changedLast)).toBe(false);
      // The file is one byte longer, or one byte shorter, than what it should hold.
      expect(await handleHoldsExactly(handle, content.subarray(0, content.length - 1))).toBe(false);
      expect(await handleHoldsExactly(handle, Buffer.concat([content, Buffer.from([9])]))).toBe(false);
    } finally {
      await handle.close();
    }
    const empty = await localFileSystem.open(await workspace.write('empty.bin', ''), 'read');
    try {
      expect(await handleHoldsExactly(empty, new Uint8Array())).toBe(true);
      expect(await handleHoldsExactly(empty, Uint8Array.from([1]))).toBe(false);
    } finally {
      await empty.close();
    }
  });

  it('sees the one byte more of a file that is longer than a whole number of chunks it should hold', async ({
    workspace,
  }) => {
    for (const chunks of [1, 2, 4, 5]) {
      const content = Buffer.alloc(chunks << 20, 4);
      const file = await workspace.write(`whole-${chunks}.bin`, Buffer.concat([content, Buffer.from([4])]));
      const handle = await localFileSystem.open(file, 'read');
      try {
        expect(await handleHoldsExactly(handle, content)).toBe(false);
        expect(await handleHoldsExactly(handle, Buffer.concat([content, Buffer.from([4])]))).toBe(true);
      } finally {
        await handle.close();
      }
    }
  });
});
