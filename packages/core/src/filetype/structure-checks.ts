/**
 * Extra structural checks for formats whose `file-type` signature is only a few letters of text ("BM", "GIF",
 * "FLV\x01", 0x00 0x00 0x01 0x00): a file is that format only if its header holds together.
 */

function u16le(head: Uint8Array, at: number): number {
  return (head[at] as number) | ((head[at + 1] as number) << 8);
}

function u32le(head: Uint8Array, at: number): number {
  return (u16le(head, at) + u16le(head, at + 2) * 0x10000) >>> 0;
}

function u32be(head: Uint8Array, at: number): number {
  const byte = (offset: number): number => head[at + offset] as number;
  return ((byte(0) << 24) | (byte(1) << 16) | (byte(2) << 8) | byte(3)) >>> 0;
}

function ascii(head: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...head.subarray(from, to));
}

/** Sizes of the known BMP info headers (BITMAPCOREHEADER … BITMAPV5HEADER). */
const BMP_INFO_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

function isBmp(head: Uint8Array): boolean {
  if (head.length < 18 || ascii(head, 0, 2) !== 'BM') return false;
  const infoSize = u32le(head, 14);
  const pixelOffset = u32le(head, 10);
  return BMP_INFO_HEADER_SIZES.has(infoSize) && pixelOffset >= 14 + infoSize;
}

function isGif(head: Uint8Array): boolean {
  const signature = ascii(head, 0, 6);
  return head.length >= 13 && (signature === 'GIF87a' || signature === 'GIF89a');
}

function isFlv(head: Uint8Array): boolean {
  // Version 1, only the audio (0x04) and video (0x01) flags may be set, header length at least 9.
  return (
    head.length >= 9 &&
    ascii(head, 0, 3) === 'FLV' &&
    head[3] === 1 &&
    ((head[4] as number) & 0xfa) === 0 &&
    u32be(head, 5) >= 9
  );
}

function isIco(head: Uint8Array): boolean {
  // Reserved 0, type 1, at least one image, and the first entry's reserved byte is 0.
  return (
    head.length >= 22 && u16le(head, 0) === 0 && u16le(head, 2) === 1 && u16le(head, 4) >= 1 && head[9] === 0
  );
}

const CHECKS: Readonly<Record<string, (head: Uint8Array) => boolean>> = {
  bmp: isBmp,
  gif: isGif,
  flv: isFlv,
  ico: isIco,
};

/** Whether `head` is structurally a valid `ext` file (formats without a weak signature pass). */
export function isStructurallyValid(ext: string, head: Uint8Array): boolean {
  const check = CHECKS[ext];
  return check ? check(head) : true;
}
