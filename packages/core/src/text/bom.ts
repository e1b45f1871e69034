import type { TextEncoding } from './codec-types.js';

/** Byte order marks of the encodings that have one: all BOM knowledge of the codec lives here. */
const BOMS: Readonly<Record<string, readonly number[]>> = {
  'utf-8': [0xef, 0xbb, 0xbf],
  'utf-16le': [0xff, 0xfe],
  'utf-16be': [0xfe, 0xff],
};

function startsWith(bytes: Uint8Array, bom: readonly number[]): boolean {
  return bom.every((byte, index) => bytes[index] === byte);
}

/** The encoding announced by a byte order mark at the start of `bytes`, if any. */
export function encodingFromBom(bytes: Uint8Array): TextEncoding | undefined {
  for (const [encoding, bom] of Object.entries(BOMS)) {
    if (startsWith(bytes, bom)) return { encoding, bom: true };
  }
  return undefined;
}

/** Whether the bytes start with a UTF-16 byte order mark (UTF-16 text is full of 0x00 bytes). */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return encodingFromBom(bytes)?.encoding.startsWith('utf-16') ?? false;
}

/** The byte order mark written for `encoding`: empty without `bom` or for an encoding that has none. */
export function bomBytes(encoding: TextEncoding): Uint8Array {
  return Uint8Array.from(encoding.bom ? (BOMS[encoding.encoding] ?? []) : []);
}

/** Length in bytes of the byte order mark of `encoding` (0 without one). */
export function bomLength(encoding: TextEncoding): number {
  return encoding.bom ? (BOMS[encoding.encoding]?.length ?? 0) : 0;
}

/** Whether `bytes` start with the byte order mark of `encoding` (false when it has none). */
export function startsWithBom(bytes: Uint8Array, encoding: TextEncoding): boolean {
  const bom = BOMS[encoding.encoding.toLowerCase()];
  return bom !== undefined && startsWith(bytes, bom);
}
