import { hasBinaryControlBytes } from '../text/encoding-bytes.js';

/** How far docs/read-media-file.md looks for a NUL byte. */
export const NUL_SCAN_BYTES = 512;

/** Whether a NUL byte occurs in the first 512 bytes. */
export function hasEarlyNul(head: Uint8Array): boolean {
  return head.subarray(0, NUL_SCAN_BYTES).includes(0);
}

/**
 * Whether the head reads as plain text: no control byte other than whitespace and escape. Every binary format we
 * sniff has such bytes in its header (lengths, small integers, PNG's 0x1A), while text that merely begins with "BM"
 * or "GIF8" has none.
 */
export function looksLikePlainText(head: Uint8Array): boolean {
  return !hasBinaryControlBytes(head);
}
