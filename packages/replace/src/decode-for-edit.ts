import { constants } from 'node:buffer';
import { decodeText, type DecodeResult } from '@kimi-tools/core/toolkit';

/**
 * Decodes the file; a file with more bytes than the longest string V8 can hold (about 512 MiB) and that does not
 * decode is too large to edit, not badly encoded (the decoder cannot even hold it).
 */
export function decodeOrTooLarge(bytes: Uint8Array): DecodeResult | 'too-large' {
  const overLimit = bytes.length > constants.MAX_STRING_LENGTH;
  try {
    const decoded = decodeText(bytes);
    return !decoded.ok && overLimit ? 'too-large' : decoded;
  } catch (error) {
    if (overLimit) return 'too-large';
    throw error;
  }
}
