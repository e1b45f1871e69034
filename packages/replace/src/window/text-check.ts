import {
  createStreamDecoder,
  createUtf8StreamCheck,
  encodeText,
  UnencodableTextError,
  type TextFormat,
} from '@kimi-tools/core/toolkit';

/**
 * Checks a file read in windows's text chunk by chunk, as the in-memory path's decoding would judge the whole file: no NUL
 * character (binary) and nothing the encoding cannot decode exactly. The format is judged from the first 64 KiB only,
 * so a bad byte further on must refuse the streamed edit: a window decoded with a replacement character would put the
 * kept bytes at the wrong offsets.
 */
export interface TextCheck {
  /**
   * Checks the next bytes (the file from its first character on, in order), the `last` of the file (a character cut
   * off by the end is not text); false once the file cannot be text.
   */
  push(bytes: Uint8Array, last: boolean): boolean;
}

function utf8Check(): TextCheck {
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

function utf16Check(encoding: string): TextCheck {
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
function undecodableBytes(format: TextFormat): number[] {
  const bad = [0];
  for (let byte = 1; byte < 256; byte++) {
    const alone = Uint8Array.of(byte);
    try {
      const decoded = createStreamDecoder({ encoding: format.encoding, bom: false }).write(alone);
      if (!Buffer.from(encodeText(decoded, { ...format, bom: false })).equals(alone)) bad.push(byte);
    } catch (error) {
      if (!(error instanceof UnencodableTextError)) throw error;
      bad.push(byte);
    }
  }
  return bad;
}

function singleByteCheck(format: TextFormat): TextCheck {
  // Each byte is one character: a file decodes exactly when none of the few bad bytes occurs (a native search each).
  const bad = undecodableBytes(format);
  let valid = true;
  return {
    push(bytes) {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      valid &&= bad.every((byte) => buffer.indexOf(byte) === -1);
      return valid;
    },
  };
}

/** The check of a file read in windows in `format` (one of the encodings windows are read in). */
export function createTextCheck(format: TextFormat): TextCheck {
  if (format.encoding === 'utf-8') return utf8Check();
  if (format.encoding.startsWith('utf-16')) return utf16Check(format.encoding);
  return singleByteCheck(format);
}
