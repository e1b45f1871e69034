import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectFileKind } from './file-kind.js';
import { FILE_HEAD_BYTES, readFileHead } from './read-file-head.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-filekind-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function kindOf(name: string, content: Uint8Array | string) {
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return detectFileKind(file, await readFileHead(file));
}

function u32be(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  // The CRC is not checked by sniffing; a fixed value keeps the fixture simple.
  return Buffer.concat([u32be(data.length), Buffer.from(type, 'latin1'), data, u32be(0)]);
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])),
  pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01])),
  pngChunk('IEND', Buffer.alloc(0)),
]);

const GIF = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]),
  Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
]);

function bmp(): Buffer {
  const header = Buffer.alloc(58);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(58, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(1, 18);
  header.writeInt32LE(1, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(4, 34);
  return header;
}

function webp(): Buffer {
  const vp8 = Buffer.from([
    0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0x34, 0x25,
  ]);
  const chunk = Buffer.concat([Buffer.from('VP8 ', 'latin1'), Buffer.alloc(4), vp8]);
  chunk.writeUInt32LE(vp8.length, 4);
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), riffSize, Buffer.from('WEBP', 'latin1'), chunk]);
}

const MP4 = Buffer.concat([
  u32be(24),
  Buffer.from('ftypisom', 'latin1'),
  u32be(0x200),
  Buffer.from('isommp42', 'latin1'),
  u32be(8),
  Buffer.from('free', 'latin1'),
]);

const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00,
]);

describe('detectFileKind', () => {
  it('recognises tiny images and videos by their content', async () => {
    expect(await kindOf('a.png', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
    expect(await kindOf('a.gif', GIF)).toEqual({ kind: 'image', mime: 'image/gif' });
    expect(await kindOf('a.bmp', bmp())).toEqual({ kind: 'image', mime: 'image/bmp' });
    expect(await kindOf('a.webp', webp())).toEqual({ kind: 'image', mime: 'image/webp' });
    expect(await kindOf('a.mp4', MP4)).toEqual({ kind: 'video', mime: 'video/mp4' });
  });

  it('recognises a PNG without an extension, and the sniffed type beats a wrong extension', async () => {
    expect(await kindOf('picture', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
    expect(await kindOf('photo.png', JPEG)).toEqual({ kind: 'image', mime: 'image/jpeg' });
  });

  it('keeps text that starts with magic letters as text', async () => {
    expect(await kindOf('cars.txt', 'BMW and Audi are car makers.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('notes.txt', 'GIF89a was a format revision.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('video.txt', 'FLV\x01 is the header of Flash video.\n')).toEqual({ kind: 'text' });
    expect(await kindOf('noext', 'BM is a bitmap signature\n')).toEqual({ kind: 'text' });
  });

  it('rejects weak signatures whose header does not hold together', async () => {
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

  it('lets a sniffed image win over a text extension', async () => {
    expect(await kindOf('notes.txt', PNG)).toEqual({ kind: 'image', mime: 'image/png' });
  });

  it('treats TypeScript sources as text even when they look like an MPEG transport stream', async () => {
    const source = `G${'x'.repeat(187)}G${'y'.repeat(187)}G${'z'.repeat(200)}\n`;
    for (const extension of ['ts', 'tsx', 'mts', 'cts']) {
      expect(await kindOf(`module.${extension}`, source)).toEqual({ kind: 'text' });
    }
    expect(await kindOf('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')).toEqual({
      kind: 'text',
    });
  });

  it('treats UTF-16 with a BOM as text', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\r\n', 'utf16le')]);
    expect(await kindOf('utf16.txt', utf16)).toEqual({ kind: 'text' });
    expect(await kindOf('utf16.ts', utf16)).toEqual({ kind: 'text' });
  });

  it('says binary for a NUL in the first 512 bytes without a recognised format', async () => {
    expect(await kindOf('data.bin', Buffer.from([0x01, 0x02, 0x00, 0x03]))).toEqual({ kind: 'binary' });
    expect(await kindOf('late-nul.txt', Buffer.concat([Buffer.alloc(600, 0x41), Buffer.from([0])]))).toEqual({
      kind: 'text',
    });
  });

  it('says binary for recognised formats that are not media', async () => {
    const zip = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
      Buffer.alloc(40),
    ]);
    expect(await kindOf('archive.zip', zip)).toEqual({ kind: 'binary' });
  });

  it('uses the media extension only when the content is not plain text', async () => {
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
  it('reads at most the requested bytes', async () => {
    const file = path.join(dir, 'big.txt');
    await fs.writeFile(file, Buffer.alloc(FILE_HEAD_BYTES + 10, 0x61));
    expect((await readFileHead(file)).length).toBe(FILE_HEAD_BYTES);
    expect((await readFileHead(file, 7)).length).toBe(7);
    await fs.writeFile(file, 'abc');
    expect(Buffer.from(await readFileHead(file)).toString()).toBe('abc');
  });
});
