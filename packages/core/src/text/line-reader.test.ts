import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { closeSync, openSync, readSync } from 'node:fs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextEncoding } from './codec-types.js';
import { scanLines, type LineScanOptions, type LinePosition, type ScannedLine } from './line-reader.js';
import { localFileSystem } from '../fs/local-file-system.js';
import type { OpenFile } from '../fs/file-system.js';
import { giveBackLineFeedCounter, takeLineFeedCounter } from './reused-line-feed-counter.js';

let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace();
});
afterAll(async () => {
  await workspace.cleanup();
});

const UTF8: TextEncoding = { encoding: 'utf-8', bom: false };
let counter = 0;

async function scan(
  content: Uint8Array | string,
  options: Partial<LineScanOptions> & { stopAfter?: number } = {},
): Promise<{
  lines: ScannedLine[];
  total: number | undefined;
  checkpoints: LinePosition[];
  nulByte: boolean;
  notUtf8: boolean;
}> {
  const file = await workspace.write(`f${++counter}`, content);
  const handle = await localFileSystem.open(file, 'read');
  try {
    const lines: ScannedLine[] = [];
    const checkpoints: LinePosition[] = [];
    const { size } = await handle.stat();
    const result = await scanLines(handle, {
      encoding: UTF8,
      end: size,
      onLine: (line) => {
        lines.push(line);
        return options.stopAfter === undefined || lines.length < options.stopAfter;
      },
      onCheckpoint: (position) => checkpoints.push(position),
      ...options,
    });
    return { lines, total: result.totalLines, checkpoints, nulByte: result.nulByte, notUtf8: result.notUtf8 };
  } finally {
    await handle.close();
  }
}

const texts = (lines: ScannedLine[]) => lines.map((line) => line.text);

describe('scanLines', () => {
  it('splits on LF, CRLF and lone CR, with every chunk size', async () => {
    const content = 'a\r\nbb\rccc\n\nd\r\r\ne';
    for (const chunkBytes of [1, 2, 3, 5, 64]) {
      const { lines, total } = await scan(content, { chunkBytes });
      expect(texts(lines)).toEqual(['a', 'bb', 'ccc', '', 'd', '', 'e']);
      expect(lines.map((line) => line.terminated)).toEqual([true, true, true, true, true, true, false]);
      expect(total).toBe(7);
    }
  });

  it('counts a final break as the end of the last line, and an empty file as no lines', async () => {
    expect((await scan('x\n')).total).toBe(1);
    expect((await scan('x\r')).total).toBe(1);
    expect((await scan('x\r\n', { chunkBytes: 2 })).total).toBe(1);
    const empty = await scan('');
    expect(empty.total).toBe(0);
    expect(empty.lines).toEqual([]);
  });

  it('skips a UTF-8 BOM and delivers from firstLine on', async () => {
    const encoding: TextEncoding = { encoding: 'utf-8', bom: true };
    const { lines, total } = await scan('\ufeffone\ntwo\nthree', { encoding, firstLine: 2, chunkBytes: 2 });
    expect(lines).toEqual([
      { number: 2, text: 'two', terminated: true, cut: false },
      { number: 3, text: 'three', terminated: false, cut: false },
    ]);
    expect(total).toBe(3);
    const fromTheTop = await scan('\ufeffone\ntwo', { encoding, chunkBytes: 1 });
    expect(texts(fromTheTop.lines)).toEqual(['one', 'two']);
    expect(fromTheTop.total).toBe(2);
    expect((await scan('\ufeff', { encoding })).total).toBe(0);
  });

  it('stops when onLine says so; the total is known only with countToEnd', async () => {
    const stopped = await scan('1\n2\n3\n4\n', { stopAfter: 2 });
    expect(texts(stopped.lines)).toEqual(['1', '2']);
    expect(stopped.total).toBeUndefined();
    const counted = await scan('1\n2\n3\n4\n', { stopAfter: 2, countToEnd: true, chunkBytes: 3 });
    expect(texts(counted.lines)).toEqual(['1', '2']);
    expect(counted.total).toBe(4);
  });

  it('keeps only the beginning of a long line, across chunks', async () => {
    const long = '字'.repeat(50);
    const { lines } = await scan(`${long}\nshort\n`, { maxLineChars: 10, chunkBytes: 7 });
    expect(lines[0]!.cut).toBe(true);
    expect([...lines[0]!.text].slice(0, 11).join('')).toBe('字'.repeat(11));
    expect(lines[1]).toEqual({ number: 2, text: 'short', terminated: true, cut: false });
  });

  it('decodes UTF-16 with a BOM, in both byte orders', async () => {
    const text = 'α\r\nβ\rγ\n😀';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const [bytes, encoding] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      const { lines, total } = await scan(bytes, { encoding: { encoding, bom: true }, chunkBytes: 3 });
      expect(texts(lines)).toEqual(['α', 'β', 'γ', '😀']);
      expect(total).toBe(4);
    }
  });

  it('decodes legacy encodings line by line (GBK)', async () => {
    const bytes = iconv.encode('中文\r\n第二行\n', 'gbk');
    const { lines, total } = await scan(bytes, { encoding: { encoding: 'gbk', bom: false }, chunkBytes: 3 });
    expect(texts(lines)).toEqual(['中文', '第二行']);
    expect(total).toBe(2);
  });

  it('passes every byte to onBytes, BOM included', async () => {
    const seen: number[] = [];
    await scan('\ufeffab\ncd', { chunkBytes: 2, onBytes: (bytes) => seen.push(...bytes) });
    expect(Buffer.from(seen).toString('utf8')).toBe('\ufeffab\ncd');
  });

  it.each(['\n', '\r\n'])(
    'emits checkpoints that resume at exactly the right line (%j breaks)',
    async (eol) => {
      const lines = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`);
      const content = lines.join(eol) + eol;
      const full = await scan(content, { checkpointBytes: 50, chunkBytes: 9, onLine: undefined });
      expect(full.total).toBe(200);
      expect(full.checkpoints.length).toBeGreaterThan(10);
      for (const wanted of [1, 57, 123, 200]) {
        const start = full.checkpoints.filter((point) => point.line <= wanted).at(-1);
        const resumed = await scan(content, { start, firstLine: wanted, stopAfter: 1 });
        expect(resumed.lines[0]).toEqual({
          number: wanted,
          text: `line ${wanted}`,
          terminated: true,
          cut: false,
        });
      }
    },
  );

  it('resumes UTF-16 scans from checkpoints', async () => {
    const text = Array.from({ length: 60 }, (_, index) => `行${index + 1}`).join('\n');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const encoding: TextEncoding = { encoding: 'utf-16le', bom: true };
    const full = await scan(bytes, { encoding, checkpointBytes: 40, chunkBytes: 16, onLine: undefined });
    expect(full.total).toBe(60);
    const start = full.checkpoints.at(-1)!;
    expect(start.line).toBeGreaterThan(1);
    const resumed = await scan(bytes, { encoding, start, firstLine: 60 });
    expect(resumed.lines).toEqual([{ number: 60, text: '行60', terminated: false, cut: false }]);
  });

  it('counts big files in bulk (WebAssembly) and still stops at exactly the right line', async () => {
    const count = 600_000; // ~7 MB: above the bulk-counting threshold, several read chunks
    const content = Array.from({ length: count }, (_, index) => `row ${index + 1}\n`).join('');
    const full = await scan(content, { onLine: undefined, chunkBytes: 1 << 20 });
    expect(full.total).toBe(count);
    expect(full.checkpoints.length).toBeGreaterThan(3);
    // Counted in reads of 4 MiB, split in pieces of 1 MiB: a checkpoint at most two pieces after the last, as when
    // every read was 1 MiB (a read of a checkpoint's line never goes back further).
    const gaps = full.checkpoints
      .slice(1)
      .map((point, index) => point.offset - full.checkpoints[index]!.offset);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2 << 20);
    for (const wanted of [2, 123_457, 599_999]) {
      const direct = await scan(content, { firstLine: wanted, stopAfter: 2, countToEnd: true });
      expect(texts(direct.lines)).toEqual([`row ${wanted}`, `row ${wanted + 1}`]);
      expect(direct.total).toBe(count);
      const start = full.checkpoints.filter((point) => point.line <= wanted).at(-1)!;
      const resumed = await scan(content, { start, firstLine: wanted, stopAfter: 1 });
      expect(texts(resumed.lines)).toEqual([`row ${wanted}`]);
    }
    const crlf = await scan(content.replaceAll('\n', '\r\n'), { firstLine: count, countToEnd: true });
    expect(crlf.lines).toEqual([{ number: count, text: `row ${count}`, terminated: true, cut: false }]);
    expect(crlf.total).toBe(count);
  });

  it('counts mixed LF, CRLF and lone CR breaks in bulk, across read boundaries', async () => {
    const count = 600_000; // ~4.9 MB: above the bulk-counting threshold
    const breaks = ['\n', '\r\n', '\r'];
    const content = Array.from({ length: count }, (_, index) => `r${index + 1}${breaks[index % 3]}`).join('');
    for (const chunkBytes of [4099, 1 << 20]) {
      const full = await scan(content, { onLine: undefined, chunkBytes });
      expect(full.total).toBe(count);
      for (const wanted of [3, 300_001, count]) {
        const direct = await scan(content, { firstLine: wanted, stopAfter: 1, countToEnd: true, chunkBytes });
        expect(texts(direct.lines)).toEqual([`r${wanted}`]);
        expect(direct.total).toBe(count);
        const start = full.checkpoints.filter((point) => point.line <= wanted).at(-1)!;
        const resumed = await scan(content, { start, firstLine: wanted, stopAfter: 1, chunkBytes });
        expect(texts(resumed.lines)).toEqual([`r${wanted}`]);
      }
    }
  });

  it('finds a 00 byte anywhere when asked, in bulk and not, and still counts every line', async () => {
    const count = 500_000; // ~5.4 MB: above the bulk-counting threshold
    const clean = Buffer.from(Array.from({ length: count }, (_, index) => `line ${index}\n`).join(''));
    // In a SIMD block of a middle read, and in the last few bytes of a read whose length is no multiple of 64.
    for (const [at, chunkBytes] of [
      [(3 << 20) + 100, 1 << 20],
      [clean.length - 2, 1 << 20],
      [4099 * 7 + 4098, 4099],
    ] as const) {
      const withNul = Buffer.from(clean);
      withNul[at] = 0;
      const found = await scan(withNul, { onLine: undefined, chunkBytes, findNulByte: true });
      expect(found.nulByte).toBe(true);
      expect(found.total).toBe(count);
      expect((await scan(withNul, { onLine: undefined, chunkBytes })).nulByte).toBe(false);
      expect((await scan(clean, { onLine: undefined, chunkBytes, findNulByte: true })).nulByte).toBe(false);
    }
    const small = await scan('a\nb\u0000c\n', { findNulByte: true });
    expect(small.nulByte).toBe(true);
    expect(texts(small.lines)).toEqual(['a', 'b\u0000c']);
  });

  it('splits CRLF and multi-byte characters cut by any read edge, counting in bulk with reads running ahead', async () => {
    const count = 200_000; // ~5.6 MB: above the bulk-counting threshold
    const rows = Array.from(
      { length: count },
      (_, index) => `r${index + 1} é€😀${index % 5 === 0 ? '\n' : '\r\n'}`,
    );
    const content = Buffer.from(rows.join(''));
    for (const chunkBytes of [4099, 65_537]) {
      // The read edges fall inside both kinds of pair, not by luck.
      const edges = Array.from(
        { length: Math.floor(content.length / chunkBytes) },
        (_, index) => (index + 1) * chunkBytes,
      );
      expect(edges.some((edge) => content[edge - 1] === 13 && content[edge] === 10)).toBe(true);
      expect(edges.some((edge) => content[edge]! >= 0x80 && content[edge]! < 0xc0)).toBe(true);
      const full = await scan(content, { onLine: undefined, chunkBytes, checkUtf8: true });
      expect(full.total).toBe(count);
      expect(full.notUtf8).toBe(false);
      for (const wanted of [1, 77_777, count - 1]) {
        const page = await scan(content, {
          firstLine: wanted,
          stopAfter: 2,
          countToEnd: true,
          chunkBytes,
          checkUtf8: true,
        });
        expect(texts(page.lines)).toEqual([`r${wanted} é€😀`, `r${wanted + 1} é€😀`]);
        expect(page.total).toBe(count);
        expect(page.notUtf8).toBe(false);
        const start = full.checkpoints.filter((point) => point.line <= wanted).at(-1)!;
        const resumed = await scan(content, { start, firstLine: wanted, stopAfter: 1, chunkBytes });
        expect(texts(resumed.lines)).toEqual([`r${wanted} é€😀`]);
      }
    }
  });

  it('checks UTF-8 in its own pass: a bad byte in any chunk, a character cut by the end of the file', async () => {
    const ascii = Buffer.from(Array.from({ length: 400_000 }, (_, index) => `line ${index}\n`).join(''));
    const chunkBytes = 1 << 16;
    const euro = Buffer.from('€');
    // A bad byte in the middle of a chunk, at the start of one, and a character cut by a chunk's edge that the next
    // (plain ASCII, so never looked at byte by byte) does not finish.
    for (const [at, bytes] of [
      [3 * chunkBytes + 100, [0xff]],
      [5 * chunkBytes, [0x80]],
      [7 * chunkBytes - 2, euro.subarray(0, 2)],
    ] as const) {
      const damaged = Buffer.from(ascii);
      damaged.set(bytes, at);
      const result = await scan(damaged, { onLine: undefined, chunkBytes, checkUtf8: true });
      expect(result.notUtf8).toBe(true);
      expect(result.total).toBe(400_000);
    }
    // A whole character across that edge is fine; one cut off by the end of the file is not.
    const whole = Buffer.from(ascii);
    whole.set(euro, 7 * chunkBytes - 2);
    expect((await scan(whole, { onLine: undefined, chunkBytes, checkUtf8: true })).notUtf8).toBe(false);
    const cutAtEnd = Buffer.concat([ascii, euro.subarray(0, 1)]);
    expect((await scan(cutAtEnd, { onLine: undefined, chunkBytes, checkUtf8: true })).notUtf8).toBe(true);
    expect((await scan(cutAtEnd, { onLine: undefined, chunkBytes })).notUtf8).toBe(false);
    expect((await scan('a\n\u00e9', { checkUtf8: true })).notUtf8).toBe(false);
    expect((await scan(Buffer.from([0x61, 0x0a, 0xc3]), { checkUtf8: true })).notUtf8).toBe(true);
  });

  it('scans a file that shrank after its size was taken up to where it ends now', async () => {
    const content = Array.from({ length: 500_000 }, (_, index) => `row ${index + 1}\n`).join('');
    const file = await workspace.write(`f${++counter}`, content);
    const handle = await localFileSystem.open(file, 'read');
    try {
      // `end` past the file's end, as when it was cut after the caller's fstat.
      const result = await scanLines(handle, {
        encoding: UTF8,
        end: content.length + (3 << 20),
        chunkBytes: 1 << 20,
      });
      expect(result.totalLines).toBe(500_000);
      expect(result.bytesScanned).toBe(content.length);
    } finally {
      await handle.close();
    }
  });

  it('counts right in bulk scans one after another and two at once, whatever the last scan left in the buffers', async () => {
    // Bulk scans reuse the WebAssembly memory of the last one that ended. The first file is nothing but line feeds and
    // fills all four buffers with them; the others end in reads of a length that is no multiple of 64 (the blocks the
    // counter works in), so a look past the bytes just read would count the line feeds left behind.
    const feeds = await workspace.write('reuse-feeds', '\n'.repeat((16 << 20) + 5));
    const lines = (count: number, width: number) => ('x'.repeat(width - 1) + '\n').repeat(count);
    const small = await workspace.write('reuse-small', lines(381_400, 11)); // 4 MiB + 1,096 bytes
    const other = await workspace.write('reuse-other', lines(600_001, 9) + 'tail'); // 5,400,013 bytes
    const totalOf = async (file: string) => {
      const handle = await localFileSystem.open(file, 'read');
      try {
        const { size } = await handle.stat();
        return (await scanLines(handle, { encoding: UTF8, end: size, countToEnd: true })).totalLines;
      } finally {
        await handle.close();
      }
    };
    expect(await totalOf(feeds)).toBe((16 << 20) + 5);
    expect(await totalOf(small)).toBe(381_400);
    expect(await totalOf(feeds)).toBe((16 << 20) + 5);
    expect(await totalOf(other)).toBe(600_002);
    expect(await Promise.all([totalOf(small), totalOf(other), totalOf(feeds)])).toEqual([
      381_400,
      600_002,
      (16 << 20) + 5,
    ]);
  });

  it('gives its counter back only once the reads into it are done, even when aborted', async () => {
    const file = await workspace.write('late-reads', 'x'.repeat(11).concat('\n').repeat(700_000));
    const handle = await localFileSystem.open(file, 'read');
    const fd = openSync(file, 'r');
    const controller = new AbortController();
    let landedInGivenBack = 0;
    try {
      // Reads that land 5 ms after they are issued, as over a slow link. Each read that lands after the abort looks
      // whether its buffer belongs to the counter a next scan would take.
      const slow: OpenFile = Object.assign(Object.create(handle) as OpenFile, {
        read: (buffer: Uint8Array, offset: number, length: number, position: number) =>
          new Promise<{ bytesRead: number }>((resolve) =>
            setTimeout(() => {
              const bytesRead = readSync(fd, buffer, offset, length, position);
              if (controller.signal.aborted) {
                const next = takeLineFeedCounter(4 << 20, 4);
                if (next?.buffers.some((taken) => taken.buffer === buffer.buffer)) landedInGivenBack += 1;
                if (next) giveBackLineFeedCounter(next);
              }
              resolve({ bytesRead });
            }, 5),
          ),
      });
      const scanned = scanLines(slow, {
        encoding: UTF8,
        end: (await handle.stat()).size,
        countToEnd: true,
        signal: controller.signal,
        onCheckpoint: (position) => {
          if (position.line > 1) controller.abort();
        },
      });
      await expect(scanned).rejects.toThrow(/aborted/);
      expect(landedInGivenBack).toBe(0);
    } finally {
      closeSync(fd);
      await handle.close();
    }
  });

  it('stops with an AbortError when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(scan('a\nb\n', { signal: controller.signal })).rejects.toThrow(/aborted/);
  });
});
