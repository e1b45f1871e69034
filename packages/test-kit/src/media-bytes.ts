// Tiny but structurally valid media files, built byte by byte so the repository holds no binary blobs.
import { crc32, deflateSync } from 'node:zlib';

function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function u16be(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

function u16le(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff];
}

function u32be(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function u32le(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concat(ascii(type), data);
  return concat(u32be(data.length), typeAndData, u32be(crc32(typeAndData)));
}

/** A truecolour PNG of `width`×`height` red pixels (IHDR, zlib-compressed IDAT, IEND, real CRCs). */
export function pngBytes(width = 1, height = 1): Uint8Array {
  const header = Uint8Array.from([...u32be(width), ...u32be(height), 8, 2, 0, 0, 0]);
  const row = [0, ...Array.from({ length: width }, () => [0xff, 0, 0]).flat()];
  const pixels = Uint8Array.from(Array.from({ length: height }, () => row).flat());
  return concat(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', new Uint8Array()),
  );
}

function jpegSegment(marker: number, payload: ArrayLike<number>): Uint8Array {
  return concat([0xff, marker], u16be(payload.length + 2), payload);
}

/**
 * A baseline greyscale JPEG of `width`×`height` mid-grey pixels. Both Huffman tables hold a single 1-bit
 * code (DC category 0, AC end-of-block), so every 8×8 block is the two bits `00`.
 */
export function jpegBytes(width = 1, height = 1): Uint8Array {
  const jfif = [...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const quantisation = [0, ...new Array<number>(64).fill(1)];
  const frame = [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0];
  const oneCode = [1, ...new Array<number>(15).fill(0)];
  const scanHeader = [1, 1, 0x00, 0, 63, 0];
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks).padEnd(Math.ceil((blocks * 2) / 8) * 8, '1');
  const scan = Array.from({ length: bits.length / 8 }, (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2));
  return concat(
    [0xff, 0xd8],
    jpegSegment(0xe0, jfif),
    jpegSegment(0xdb, quantisation),
    jpegSegment(0xc0, frame),
    jpegSegment(0xc4, [0x00, ...oneCode, 0]),
    jpegSegment(0xc4, [0x10, ...oneCode, 0]),
    jpegSegment(0xda, scanHeader),
    scan,
    [0xff, 0xd9],
  );
}

/** A 1×1 GIF89a: two-colour global palette, one image whose LZW stream is clear, pixel 0, end. */
export function gifBytes(): Uint8Array {
  return concat(
    ascii('GIF89a'),
    [...u16le(1), ...u16le(1), 0x80, 0, 0],
    [0, 0, 0, 0xff, 0xff, 0xff],
    [0x2c, ...u16le(0), ...u16le(0), ...u16le(1), ...u16le(1), 0],
    [2, 2, 0x44, 0x01, 0],
    [0x3b],
  );
}

/** A 24-bit uncompressed BMP (BITMAPINFOHEADER) of `width`×`height` blue pixels. */
export function bmpBytes(width = 1, height = 1): Uint8Array {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = rowSize * height;
  const row = Array.from({ length: rowSize }, (_, i) => (i < width * 3 && i % 3 === 0 ? 0xff : 0));
  return concat(
    ascii('BM'),
    u32le(54 + pixelBytes),
    [0, 0, 0, 0],
    u32le(54),
    u32le(40),
    u32le(width),
    u32le(height),
    u16le(1),
    u16le(24),
    u32le(0),
    u32le(pixelBytes),
    u32le(2835),
    u32le(2835),
    u32le(0),
    u32le(0),
    Array.from({ length: height }, () => row).flat(),
  );
}

/** Writes bits least-significant first, as VP8L wants them. */
class BitWriter {
  private readonly bytes: number[] = [];
  private bitCount = 0;

  write(value: number, width: number): void {
    for (let i = 0; i < width; i++) {
      if (this.bitCount % 8 === 0) this.bytes.push(0);
      if ((value >>> i) & 1) this.bytes[this.bytes.length - 1]! |= 1 << (this.bitCount % 8);
      this.bitCount++;
    }
  }

  toArray(): number[] {
    return [...this.bytes];
  }
}

/**
 * A lossless WebP (VP8L) of `width`×`height` opaque green pixels: no transforms, no colour cache, and five
 * single-symbol prefix codes, so the pixels themselves take zero bits.
 */
export function webpBytes(width = 1, height = 1): Uint8Array {
  const bits = new BitWriter();
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha not used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [0xff, 0, 0, 0xff]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // 8-bit symbol
    bits.write(symbol, 8);
  }
  bits.write(1, 1); // distance code: simple, one 1-bit symbol 0
  bits.write(0, 1);
  bits.write(0, 1);
  bits.write(0, 1);
  const payload = [0x2f, ...bits.toArray()];
  const padded = payload.length % 2 === 1 ? [...payload, 0] : payload;
  const chunk = concat(ascii('VP8L'), u32le(payload.length), padded);
  return concat(ascii('RIFF'), u32le(4 + chunk.length), ascii('WEBP'), chunk);
}

function mp4Box(type: string, payload: ArrayLike<number>): Uint8Array {
  return concat(u32be(payload.length + 8), ascii(type), payload);
}

/** An MP4 with an `ftyp` (isom) and a `moov` holding a version-0 `mvhd`. */
export function mp4Bytes(): Uint8Array {
  const identity = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].flatMap(u32be);
  const movieHeader = concat(
    [0, 0, 0, 0],
    u32be(0),
    u32be(0),
    u32be(1000),
    u32be(0),
    u32be(0x00010000),
    u16be(0x0100),
    new Array<number>(10).fill(0),
    identity,
    new Array<number>(24).fill(0),
    u32be(2),
  );
  return concat(
    mp4Box('ftyp', concat(ascii('isom'), u32be(0x200), ascii('isomiso2avc1mp41'))),
    mp4Box('moov', mp4Box('mvhd', movieHeader)),
  );
}

function ebmlSize(size: number): number[] {
  if (size < 0x7f) return [0x80 | size];
  return [0x40 | (size >>> 8), size & 0xff];
}

function ebml(id: number[], payload: ArrayLike<number>): Uint8Array {
  return concat(id, ebmlSize(payload.length), payload);
}

/** A WebM: EBML header with DocType `webm`, then a Segment with Info and one VP8 video track. */
export function webmBytes(): Uint8Array {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    concat(
      ebml([0x42, 0x86], [1]),
      ebml([0x42, 0xf7], [1]),
      ebml([0x42, 0xf2], [4]),
      ebml([0x42, 0xf3], [8]),
      ebml([0x42, 0x82], ascii('webm')),
      ebml([0x42, 0x87], [4]),
      ebml([0x42, 0x85], [2]),
    ),
  );
  const info = ebml(
    [0x15, 0x49, 0xa9, 0x66],
    concat(
      ebml([0x2a, 0xd7, 0xb1], u32be(1_000_000)),
      ebml([0x4d, 0x80], ascii('kimi-tools tests')),
      ebml([0x57, 0x41], ascii('kimi-tools tests')),
    ),
  );
  const track = ebml(
    [0xae],
    concat(
      ebml([0xd7], [1]),
      ebml([0x73, 0xc5], [1]),
      ebml([0x83], [1]),
      ebml([0x86], ascii('V_VP8')),
      ebml([0xe0], concat(ebml([0xb0], [1]), ebml([0xba], [1]))),
    ),
  );
  const segment = ebml([0x18, 0x53, 0x80, 0x67], concat(info, ebml([0x16, 0x54, 0xae, 0x6b], track)));
  return concat(header, segment);
}

/**
 * A one-page PDF with no text layer, as a scanner makes them: the page, `width`×`height` points, is one image of
 * 2×2 grey pixels drawn over it (uncompressed RGB). The cross-reference table holds the objects' real offsets.
 */
export function scannedPdfBytes(width = 200, height = 100): Uint8Array {
  const drawing = `q ${width} 0 0 ${height} 0 0 cm /Scan Do Q\n`;
  const pixels = new Array<number>(12).fill(0x80);
  const objects = [
    ascii('<< /Type /Catalog /Pages 2 0 R >>'),
    ascii('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    ascii(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] ` +
        '/Resources << /XObject << /Scan 4 0 R >> >> /Contents 5 0 R >>',
    ),
    concat(
      ascii(
        '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 ',
      ),
      ascii(`/Length ${pixels.length} >>\nstream\n`),
      pixels,
      ascii('\nendstream'),
    ),
    ascii(`<< /Length ${drawing.length} >>\nstream\n${drawing}endstream`),
  ];
  const parts: Uint8Array[] = [ascii('%PDF-1.4\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, index) => {
    const object = concat(ascii(`${index + 1} 0 obj\n`), body, ascii('\nendobj\n'));
    offsets.push(at);
    parts.push(object);
    at += object.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    `startxref\n${at}`,
    '%%EOF\n',
  ].join('\n');
  return concat(...parts, ascii(xref));
}
