import { bomLength, encodingFromBom } from '@kimi-tools/core/toolkit';

/** A byte order mark as ripgrep reads it: a UTF-8 one is skipped, UTF-16 with one is transcoded to UTF-8. */
export interface ByteOrderMark {
  /** Its length in bytes (0: none). */
  length: number;
  /** The UTF-16 encoding it marks, or `null` (UTF-8, or none: the bytes are searched as they are). */
  utf16: 'utf-16le' | 'utf-16be' | null;
}

/**
 * The byte order mark a file's first bytes (3 of them, or the whole file) start with, by core's codec. The portable
 * search's worker tells it on its own (`file-matcher.ts`): its thread runs that module's source and imports nothing.
 */
export function byteOrderMark(head: Uint8Array): ByteOrderMark {
  const encoding = encodingFromBom(head);
  if (encoding === undefined) return { length: 0, utf16: null };
  const { encoding: name } = encoding;
  return { length: bomLength(encoding), utf16: name === 'utf-16le' || name === 'utf-16be' ? name : null };
}
