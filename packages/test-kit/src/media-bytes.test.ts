import { crc32, inflateSync } from 'node:zlib';
import { detectFileKind, readFileHead } from '@kimi-tools/core/toolkit';
import { describe, expect } from 'vitest';
import {
  bmpBytes,
  gifBytes,
  jpegBytes,
  mp4Bytes,
  pngBytes,
  scannedPdfBytes,
  webmBytes,
  webpBytes,
} from './media-bytes.js';
import { test } from './workspace-test.js';
import { localFileSystem } from '@kimi-tools/core/fs';

describe('media bytes', () => {
  const builders: [string, () => Uint8Array, string][] = [
    ['png', () => pngBytes(3, 2), 'image/png'],
    ['jpg', () => jpegBytes(10, 9), 'image/jpeg'],
    ['gif', () => gifBytes(), 'image/gif'],
    ['bmp', () => bmpBytes(5, 4), 'image/bmp'],
    ['webp', () => webpBytes(7, 6), 'image/webp'],
    ['mp4', () => mp4Bytes(), 'video/mp4'],
    ['webm', () => webmBytes(), 'video/webm'],
  ];

  test.for(builders)(
    'a %s is sniffed as %s, whatever the file is called',
    async ([, build, mime], { workspace }) => {
      const file = await workspace.write('no-extension', build());
      expect(await detectFileKind(file, await readFileHead(localFileSystem, file))).toMatchObject({ mime });
    },
  );

  test('a PNG holds real CRCs and a deflated row of red pixels per line', () => {
    const png = Buffer.from(pngBytes(2, 1));
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      const typeAndData = png.subarray(at + 4, at + 8 + length);
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData));
      chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
      at += 12 + length;
    }
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([...inflateSync(chunks[1]!.data)]).toEqual([0, 0xff, 0, 0, 0xff, 0, 0]);
  });

  test('a scanned PDF is sniffed as a PDF, each object at the offset its table gives', async ({
    workspace,
  }) => {
    const file = await workspace.write('no-extension', scannedPdfBytes());
    expect(await detectFileKind(file, await readFileHead(localFileSystem, file))).toEqual({ kind: 'pdf' });
    const pdf = Buffer.from(scannedPdfBytes()).toString('latin1');
    const tableAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.startsWith('xref\n0 6\n', tableAt)).toBe(true);
    const offsets = pdf
      .slice(tableAt)
      .match(/^\d{10} 00000 n $/gm)!
      .map((row) => Number(row.slice(0, 10)));
    expect(offsets.map((offset, index) => pdf.startsWith(`${index + 1} 0 obj\n`, offset))).toEqual(
      Array(5).fill(true),
    );
  });
});
