/** A byte order mark as ripgrep reads it: a UTF-8 one is skipped, UTF-16 with one is transcoded to UTF-8. */
export interface ByteOrderMark {
  /** Its length in bytes (0: none). */
  length: number;
  /** The UTF-16 encoding it marks, or `null` (UTF-8, or none: the bytes are searched as they are). */
  utf16: 'utf-16le' | 'utf-16be' | null;
}

/** The byte order mark a file's first bytes (3 of them, or the whole file) start with. */
export function byteOrderMark(head: Uint8Array): ByteOrderMark {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { length: 3, utf16: null };
  if (head[0] === 0xff && head[1] === 0xfe) return { length: 2, utf16: 'utf-16le' };
  if (head[0] === 0xfe && head[1] === 0xff) return { length: 2, utf16: 'utf-16be' };
  return { length: 0, utf16: null };
}
