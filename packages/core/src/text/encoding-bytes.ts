/** A Buffer view of the same memory (no copy), for Buffer's fast search and compare. */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Whether `bytes` hold a 0x00 byte: outside UTF-16 text with its BOM that makes a file binary (docs/encodings.md),
 * wherever in the file it is. The one test ReadFile's scan and the write tools' decoding both apply.
 */
export function containsNulByte(bytes: Uint8Array): boolean {
  return toBuffer(bytes).indexOf(0) !== -1;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && toBuffer(a).equals(toBuffer(b));
}

/**
 * Whether `bytes` hold a control byte that text does not use: anything below 0x20 except tab, line feed, vertical
 * tab, form feed, carriage return and escape. Binary headers are full of them (lengths, small integers).
 */
export function hasBinaryControlBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte < 0x20 && (byte < 0x09 || (byte > 0x0d && byte !== 0x1b))) return true;
  }
  return false;
}
