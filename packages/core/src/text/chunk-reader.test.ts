import { closeSync, openSync, readSync } from 'node:fs';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ChunkReader } from './chunk-reader.js';
import { localFileSystem } from '../fs/local-file-system.js';
import type { OpenFile } from '../fs/file-system.js';

/** Every chunk `reader` gives, copied (a chunk is valid only until the next is asked for), with its offset. */
async function readAll(
  reader: ChunkReader,
  onChunk: (index: number) => void = () => undefined,
): Promise<Array<[number, string]>> {
  const chunks: Array<[number, string]> = [];
  for (let chunk = await reader.next(); chunk; chunk = await reader.next()) {
    chunks.push([chunk.offset, chunk.bytes.toString('latin1')]);
    onChunk(chunks.length);
  }
  return chunks;
}

describe('ChunkReader', () => {
  test('reads a range in order with reads running ahead, each chunk intact until the next', async ({
    workspace,
  }) => {
    const content = Array.from({ length: 1000 }, (_, index) => String.fromCharCode(33 + (index % 90))).join(
      '',
    );
    const handle = await localFileSystem.open(await workspace.write('a.txt', content), 'read');
    try {
      for (const ahead of [1, 2, 3]) {
        for (const chunkBytes of [3, 7, 64, 999, 1000, 4096]) {
          const reader = new ChunkReader(handle, 10, 990, chunkBytes, ahead);
          const chunks: Array<[number, string]> = [];
          for (let chunk = await reader.next(); chunk; chunk = await reader.next()) {
            // Let the reads queued behind this chunk land before looking at it: none of them may write over it.
            await new Promise((resolve) => setImmediate(resolve));
            chunks.push([chunk.offset, chunk.bytes.toString('latin1')]);
          }
          expect(chunks.map(([, text]) => text).join('')).toBe(content.slice(10, 990));
          expect(chunks.map(([offset]) => offset)).toEqual(
            Array.from({ length: Math.ceil(980 / chunkBytes) }, (_, index) => 10 + index * chunkBytes),
          );
        }
      }
      expect(await new ChunkReader(handle, 5, 5, 64, 2).next()).toBeUndefined();
    } finally {
      await handle.close();
    }
  });

  test('moves to the buffers it is given without losing or reordering a chunk', async ({ workspace }) => {
    const content = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const handle = await localFileSystem.open(await workspace.write('a.txt', content), 'read');
    try {
      const reader = new ChunkReader(handle, 0, content.length, 4, 2);
      const given = [Buffer.alloc(4), Buffer.alloc(4), Buffer.alloc(4)];
      const seen = new Set<ArrayBufferLike>();
      const chunks: string[] = [];
      for (let chunk = await reader.next(); chunk; chunk = await reader.next()) {
        chunks.push(chunk.bytes.toString('latin1'));
        seen.add(chunk.bytes.buffer);
        if (chunks.length === 2) reader.useBuffers(given);
      }
      expect(chunks.join('')).toBe(content);
      // The later chunks were read into the buffers given (whose memory differs from Node's pool).
      expect(given.some((buffer) => seen.has(buffer.buffer))).toBe(true);
      expect(() => reader.useBuffers([Buffer.alloc(4), Buffer.alloc(4)])).toThrow(RangeError);
      expect(() => reader.useBuffers([Buffer.alloc(3), Buffer.alloc(4), Buffer.alloc(4)])).toThrow(
        RangeError,
      );
    } finally {
      await handle.close();
    }
  });

  test('reads on in the size that comes with the buffers, after the reads already queued', async ({
    workspace,
  }) => {
    const content = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const handle = await localFileSystem.open(await workspace.write('a.txt', content), 'read');
    try {
      const reader = new ChunkReader(handle, 0, content.length, 4, 2);
      const chunks = await readAll(reader, (index) => {
        if (index === 1) reader.useBuffers([Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10)], 10);
      });
      // The two reads queued behind the first were 4 bytes; every later one is 10, but the file's last.
      expect(chunks.map(([offset, text]) => [offset, text.length])).toEqual([
        [0, 4],
        [4, 4],
        [8, 4],
        [12, 10],
        [22, 10],
        [32, 4],
      ]);
      expect(chunks.map(([, text]) => text).join('')).toBe(content);
      expect(() => reader.useBuffers([Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(9)], 10)).toThrow(
        RangeError,
      );
      // Given to the constructor, they take every read from the first on.
      const given = [Buffer.alloc(10), Buffer.alloc(10), Buffer.alloc(10)];
      const fromTheStart = new ChunkReader(handle, 0, content.length, 10, 2, given);
      const firstChunk = (await fromTheStart.next())!;
      expect(given.map((buffer) => buffer.buffer)).toContain(firstChunk.bytes.buffer);
      expect(firstChunk.bytes.toString('latin1')).toBe(content.slice(0, 10));
      const rest = await readAll(fromTheStart);
      expect(rest.map(([offset]) => offset)).toEqual([10, 20, 30]);
      expect(rest.map(([, text]) => text).join('')).toBe(content.slice(10));
      expect(() => new ChunkReader(handle, 0, 10, 10, 2, [Buffer.alloc(10)])).toThrow(RangeError);
    } finally {
      await handle.close();
    }
  });

  test('keeps as many reads in flight as the buffers it moves to are given, never into a chunk in use', async ({
    workspace,
  }) => {
    const content = Array.from({ length: 400 }, (_, index) => String.fromCharCode(33 + (index % 90))).join(
      '',
    );
    const file = await workspace.write('a.txt', content);
    const fd = openSync(file, 'r');
    try {
      // Each read fills its buffer the moment it is issued, from the real file, and answers a turn later: a read
      // aimed at a buffer whose chunk is still in use would change that chunk before the caller sees it.
      let inFlight = 0;
      let most = 0;
      const handle = await localFileSystem.open(file, 'read');
      const eager: OpenFile = Object.assign(Object.create(handle) as OpenFile, {
        read(buffer: Uint8Array, offset: number, length: number, position: number) {
          const bytesRead = readSync(fd, buffer, offset, length, position);
          most = Math.max(most, ++inFlight);
          return new Promise<{ bytesRead: number }>((resolve) =>
            setImmediate(() => {
              inFlight -= 1;
              resolve({ bytesRead });
            }),
          );
        },
      });
      const reader = new ChunkReader(eager, 0, content.length, 10, 2);
      const given = Array.from({ length: 4 }, () => Buffer.alloc(20));
      const chunks = await readAll(reader, (index) => {
        // Too few buffers for three reads in flight: refused, and the reader goes on as it was.
        if (index === 2) expect(() => reader.useBuffers(given.slice(1), 20, 3)).toThrow(RangeError);
        if (index !== 3) return;
        expect(most).toBe(2);
        reader.useBuffers(given, 20, 3);
      });
      expect(most).toBe(3);
      expect(chunks.map(([, text]) => text).join('')).toBe(content);
      expect(chunks.every(([offset, text]) => text === content.slice(offset, offset + text.length))).toBe(
        true,
      );
      expect(() => reader.useBuffers(given.slice(1), 20, 3)).toThrow(RangeError);
      await handle.close();
    } finally {
      closeSync(fd);
    }
  });

  test('stops where a file that shrank ends, dropping the reads queued past it', async ({ workspace }) => {
    // The range asked for runs past the end, as when the file was cut after its size was taken.
    const handle = await localFileSystem.open(await workspace.write('a.txt', '0123456789'), 'read');
    try {
      for (const ahead of [1, 2, 3]) {
        const reader = new ChunkReader(handle, 0, 25, 4, ahead);
        expect(await readAll(reader)).toEqual([
          [0, '0123'],
          [4, '4567'],
          [8, '89'],
        ]);
        expect(await reader.next()).toBeUndefined();
      }
      // Cut at a chunk's edge: the read there returns nothing.
      expect(await readAll(new ChunkReader(handle, 2, 30, 4, 2))).toEqual([
        [2, '2345'],
        [6, '6789'],
      ]);
    } finally {
      await handle.close();
    }
  });

  test('passes a failed read on, and drain waits for the reads still running', async ({ workspace }) => {
    const handle = await localFileSystem.open(await workspace.write('a.txt', 'x'.repeat(100)), 'read');
    const reader = new ChunkReader(handle, 0, 100, 10, 2);
    expect((await reader.next())?.bytes.toString()).toBe('x'.repeat(10));
    await reader.drain();
    // Nothing is running any more: the handle can be closed, and a read on it now fails.
    await handle.close();
    const closed = new ChunkReader(handle, 0, 100, 10, 2);
    await expect(closed.next()).rejects.toThrow(/closed|EBADF/i);
    await closed.drain();
  });
});
