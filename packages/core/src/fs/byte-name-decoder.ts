import { hasLoneSurrogate, nameFromBytes } from './byte-names.js';

/**
 * Where the last character of `bytes` starts when it is cut off by their end (a lead byte whose continuation bytes
 * have not all come); `bytes.length` when none is. Looks back over at most three continuation bytes.
 */
function cutCharacterStart(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let at = end - 1; at >= 0 && at >= end - 4; at--) {
    const byte = bytes[at]!;
    if (byte < 0x80) return end;
    if (byte < 0xc0) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return end - at < length ? at : end;
  }
  return end;
}

/**
 * Decodes a stream of program output that names files (ripgrep's) as {@link nameFromBytes} would decode it whole:
 * a byte that is no part of valid UTF-8 becomes its byte escape, so a name reads back as its own bytes. A chunk is
 * decoded by Node as usual and only one that then holds U+FFFD is decoded again byte by byte, so output that is all
 * UTF-8 costs one scan more (and a well-formedness check while no escape has come). A character split between two
 * chunks is kept until its end comes.
 */
export class ByteNameDecoder {
  private carried: Buffer | undefined;
  /** Whether any chunk held a byte escape: text around the names may then hold some too. */
  escapedAny = false;

  /** The text of `chunk`, without a character cut off by its end (that comes with the next chunk). */
  write(chunk: Buffer): string {
    const bytes = this.carried ? Buffer.concat([this.carried, chunk]) : chunk;
    const cut = cutCharacterStart(bytes);
    this.carried = cut < bytes.length ? bytes.subarray(cut) : undefined;
    return this.decode(bytes.subarray(0, cut));
  }

  /** What is left: a character cut off by the end of the output, as its byte escapes. */
  end(): string {
    const left = this.carried;
    this.carried = undefined;
    return left ? this.decode(left) : '';
  }

  private decode(bytes: Buffer): string {
    const text = nameFromBytes(bytes);
    if (!this.escapedAny && hasLoneSurrogate(text)) this.escapedAny = true;
    return text;
  }
}
