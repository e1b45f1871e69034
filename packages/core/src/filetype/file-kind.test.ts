import fs from 'node:fs/promises';
import { bmpBytes, gifBytes, jpegBytes, mp4Bytes, pngBytes, test, webpBytes } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { detectFileKind } from './file-kind.js';
import { FILE_HEAD_BYTES, readFileHead } from './read-file-head.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** The kit's test, with `kindOf`: writes `content` as `name` and detects the file's kind. */
const it = test.extend('kindOf', ({ workspace }) => async (name: string, content: Uint8Array | string) => {
  const file = await workspace.write(name, content);
  return detectFileKind(file, await readFileHead(localFileSystem, file));
});

// Tiny but valid media files from the test kit.
const PNG = pngBytes();
const GIF = gifBytes();
const JPEG = jpegBytes();
const MP4 = mp4Bytes();

describe('detectFileKind', () => {
  it('recognises tiny images and videos by their content', async ({ kindOf }) => {
    expect(await kindOf('a.png', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
    expect(await kindOf('a.gif', GIF)).toEqual({ kind: 'image', mime: 'image/gif' });
    expect(await kindOf('a.bmp', bmpBytes())).toEqual({ kind: 'image', mime: 'image/bmp' });
    expect(await kindOf('a.webp', webpBytes())).toEqual({ kind: 'image', mime: 'image/webp' });
    expect(await kindOf('a.mp4', MP4)).toEqual({ kind: 'video', mime: 'video/mp4' });
  });

  it('recognises a PNG without an extension, and the sniffed type beats a wrong extension', async ({
    kindOf,
  }) => {
    expect(await kindOf('picture', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
    expect(await kindOf('photo.png', JPEG)).toEqual({ kind: 'image', mime: 'image/jpeg' });
  });

  it('keeps text that starts with magic letters as text', async ({ kindOf }) => {
    expect(await kindOf('cars.txt', 'BMW and Audi are car makers.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('notes.txt', 'GIF89a was a format revision.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('video.txt', 'FLV\x01 is the header of Flash video.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('noext', 'BM is a bitmap signature\n')).toEqual({ kind: 'text' });
  });

  it('rejects weak signatures whose header does not hold together', async ({ kindOf }) => {
    const fakeBmp = Buffer.concat([
      Buffer.from('BM', 'latin1'),
      Buffer.from([0x01, 0x00, 0x02, 0x00, 0x00, 0x00]),
    ]);
    expect(await kindOf('fake.txt', fakeBmp)).toEqual({ kind: 'binary' });
    expect(await kindOf('fake.bmp', fakeBmp)).toEqual({ kind: 'image', mime: 'image/bmp' });
    const fakeGif = Buffer.from('GIF8 not really\x01 a picture\n', 'latin1');
    expect(await kindOf('fake-gif.txt', fakeGif)).toEqual({ kind: 'text' });
    const flv = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00]);
    expect(await kindOf('clip', flv)).toEqual({ kind: 'video', mime: 'video/x-flv' });
    const ico = Buffer.concat([
      Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]),
      Buffer.alloc(30, 1),
    ]);
    expect(await kindOf('favicon.ico', ico)).toEqual({ kind: 'image', mime: 'image/x-icon' });
  });

  it('lets a sniffed image win over a text extension', async ({ kindOf }) => {
    expect(await kindOf('notes.txt', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
  });

  it('treats TypeScript sources as text even when they look like an MPEG transport stream', async ({
    kindOf,
  }) => {
    const source = `G${'x'.repeat(187)}G${'y'.repeat(187)}G${'z'.repeat(200)}\n`;
    for (const extension of ['ts', 'tsx', 'mts', 'cts']) {
      expect(await kindOf(`module.${extension}`, source)).toEqual({ kind: 'text' });
    }
    expect(await kindOf('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')).toEqual({
      kind: 'text',
    });
  });

  it('treats UTF-16 with a BOM as text', async ({ kindOf }) => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\r\n', 'utf16le')]);
    expect(await kindOf('utf16.txt', utf16)).toEqual({ kind: 'text' });
    expect(await kindOf('utf16.ts', utf16)).toEqual({ kind: 'text' });
  });

  it('says binary for a NUL in the first 512 bytes without a recognised format', async ({ kindOf }) => {
    expect(await kindOf('data.bin', Buffer.from([0x01, 0x02, 0x00, 0x03]))).toEqual({ kind: 'binary' });
    expect(await kindOf('late-nul.txt', Buffer.concat([Buffer.alloc(600, 0x41), Buffer.from([0])]))).toEqual({
      kind: 'text',
    });
  });

  it('says binary for recognised formats that are not media', async ({ kindOf }) => {
    const zip = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
      Buffer.alloc(40),
    ]);
    expect(await kindOf('archive.zip', zip)).toEqual({ kind: 'binary' });
  });

  it('recognises a PDF by its header, binary or all ASCII, whatever the extension', async ({ kindOf }) => {
    const binaryPdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n%'),
      Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x0a]),
    ]);
    expect(await kindOf('report.pdf', binaryPdf)).toEqual({ kind: 'pdf' });
    expect(await kindOf('report', binaryPdf)).toEqual({ kind: 'pdf' });
    expect(await kindOf('ascii.pdf', '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')).toEqual({
      kind: 'pdf',
    });
    // Text that only mentions the header, and a source file that starts with it, stay text.
    expect(await kindOf('notes.txt', 'A PDF starts with %PDF-1.7\n')).toEqual({ kind: 'text' });
    expect(await kindOf('header.ts', '%PDF-1.7 is not TypeScript\n')).toEqual({ kind: 'text' });
  });

  it('uses the media extension only when the content is not plain text', async ({ kindOf }) => {
    expect(
      await kindOf('pointer.png', 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\n'),
    ).toEqual({
      kind: 'text',
    });
    expect(await kindOf('damaged.png', Buffer.from([0x01, 0x02, 0x03, 0x00, 0x05]))).toEqual({
      kind: 'image',
      mime: 'image/png',
    });
    expect(await kindOf('empty.mov', '')).toEqual({ kind: 'video', mime: 'video/quicktime' });
    expect(await kindOf('empty.txt', '')).toEqual({ kind: 'text' });
  });
});

describe('readFileHead', () => {
  it('reads at most the requested bytes', async ({ workspace }) => {
    const file = await workspace.write('big.txt', Buffer.alloc(FILE_HEAD_BYTES + 10, 0x61));
    expect((await readFileHead(localFileSystem, file)).length).toBe(FILE_HEAD_BYTES);
    expect((await readFileHead(localFileSystem, file, 7)).length).toBe(7);
    await fs.writeFile(file, 'abc');
    expect(Buffer.from(await readFileHead(localFileSystem, file)).toString()).toBe('abc');
  });
});
