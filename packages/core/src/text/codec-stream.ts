import { iconvLite } from '../fs/load-on-use.js';
import type { TextEncoding } from './codec-types.js';
import { bomLength } from './bom.js';
import { toBuffer } from './encoding-bytes.js';

/** Decodes a file chunk by chunk; a character split across chunks is emitted once whole. */
export interface StreamDecoder {
  /** Decodes the next chunk; returns the characters completed by it. */
  write(chunk: Uint8Array): string;
  /** Flushes what is left (an incomplete last character becomes U+FFFD). */
  end(): string;
}

function chunkDecoder(encoding: string): StreamDecoder {
  if (encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be') {
    const decoder = new TextDecoder(encoding, { ignoreBOM: true });
    return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
  }
  const decoder = iconvLite().getDecoder(encoding);
  return { write: (chunk) => decoder.write(toBuffer(chunk)), end: () => decoder.end() ?? '' };
}

/** Incremental decoder for big files in a known encoding; skips the BOM when `encoding.bom`. */
export function createStreamDecoder(encoding: TextEncoding): StreamDecoder {
  const inner = chunkDecoder(encoding.encoding);
  let bomBytesLeft = bomLength(encoding);
  return {
    write(chunk) {
      if (bomBytesLeft > 0) {
        const skip = Math.min(bomBytesLeft, chunk.length);
        bomBytesLeft -= skip;
        chunk = chunk.subarray(skip);
      }
      return chunk.length === 0 ? '' : inner.write(chunk);
    },
    end: () => inner.end(),
  };
}
