import { createStreamDecoder } from './codec-stream.js';
import { encodeText, UnencodableTextError } from './codec.js';
import type { TextFormat } from './codec-types.js';
import { createUtf8StreamCheck } from './utf8-stream-check.js';

/**
 * Checks, chunk by chunk, that a stream of bytes is text in one encoding as `decodeText` would judge the whole: no NUL
 * character (binary) and nothing the encoding cannot decode exactly. A file whose format was judged from its start
 * only must pass it to the end before any part of it is decoded and written back on its own: a part decoded with a
 * replacement character would not encode back to its bytes.
 */
export interface TextStreamCheck {
  /**
   * Checks the next bytes (the text from its first character on, in order; `last`: the end of the stream, where a
   * character cut off is not text); false once the stream cannot be text, and from then on.
   */
  push(bytes: Uint8Array, last: boolean): boolean;
}

function utf8Check(): TextStreamCheck {
  const utf8 = createUtf8StreamCheck();
  let valid = true;
  return {
    push(bytes, last) {
      valid &&=
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(0) === -1 && utf8.push(bytes);
      return last ? utf8.end() && valid : valid;
    },
  };
}

function utf16Check(encoding: string): TextStreamCheck {
  // No strict UTF-16 check without decoding: the decoder's fatal mode refuses a lone surrogate.
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  let valid = true;
  return {
    push(bytes, last) {
      if (!valid) return false;
      try {
        valid = !(decoder.decode(bytes, { stream: true }) + (last ? decoder.decode() : '')).includes('\0');
      } catch {
        valid = false;
      }
      return valid;
    },
  };
}

/** Bytes a single-byte encoding cannot decode exactly (they do not round-trip), and NUL. */
function undecodableBytes(encoding: string): number[] {
  const bad = [0];
  for (let byte = 1; byte < 256; byte++) {
    const alone = Uint8Array.of(byte);
    try {
      const decoded = createStreamDecoder({ encoding, bom: false }).write(alone);
      if (!Buffer.from(encodeText(decoded, { encoding, bom: false })).equals(alone)) bad.push(byte);
    } catch (error) {
      if (!(error instanceof UnencodableTextError)) throw error;
      bad.push(byte);
    }
  }
  return bad;
}

function singleByteCheck(encoding: string): TextStreamCheck {
  // Each byte is one character: a stream decodes exactly when none of the few bad bytes occurs (a native search each).
  const bad = undecodableBytes(encoding);
  let valid = true;
  return {
    push(bytes) {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      valid &&= bad.every((byte) => buffer.indexOf(byte) === -1);
      return valid;
    },
  };
}

/**
 * The {@link TextStreamCheck} of `format`'s encoding: UTF-8, UTF-16 LE or BE, or a single-byte encoding (every byte
 * one character, as the ISO-8859 and windows-125x families and KOI8 are); a multi-byte legacy encoding is not checked
 * this way.
 */
export function createTextStreamCheck(format: Pick<TextFormat, 'encoding'>): TextStreamCheck {
  if (format.encoding === 'utf-8') return utf8Check();
  if (format.encoding.startsWith('utf-16')) return utf16Check(format.encoding);
  return singleByteCheck(format.encoding);
}
