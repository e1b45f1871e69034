import { nodeCrypto } from '../fs/load-on-use.js';

/** The longest file name common file systems take, in bytes (ext4, tmpfs, APFS; NTFS allows 255 UTF-16 units). */
export const MAX_NAME_BYTES = 255;

/** Hex digits of the hash that keeps two cut names apart. */
const HASH_CHARS = 8;

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a character in two. */
function fitUtf8(text: string, maxBytes: number): string {
  let used = 0;
  let end = 0;
  for (const character of text) {
    used += Buffer.byteLength(character);
    if (used > maxBytes) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * The name `.{targetName}{suffix}` of a hidden file kept beside `targetName` (a temp file, a lock file), within
 * {@link MAX_NAME_BYTES}: when it would be longer, `targetName` is cut at a character boundary and followed by a
 * short hash of the whole name, so two long names that share their beginning still get different siblings.
 */
export function siblingName(targetName: string, suffix: string): string {
  const whole = `.${targetName}${suffix}`;
  if (Buffer.byteLength(whole) <= MAX_NAME_BYTES) return whole;
  const hash = nodeCrypto().createHash('sha256').update(targetName).digest('hex').slice(0, HASH_CHARS);
  const room = MAX_NAME_BYTES - Buffer.byteLength(`.-${hash}${suffix}`);
  return `.${fitUtf8(targetName, room)}-${hash}${suffix}`;
}
