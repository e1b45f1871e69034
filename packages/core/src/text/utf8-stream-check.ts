import { nodeBuffer } from '../fs/load-on-use.js';

/** Checks, chunk by chunk, that a stream of bytes is valid UTF-8, without decoding it. */
export interface Utf8StreamCheck {
  /**
   * Checks the next chunk; false once the bytes so far cannot be UTF-8 (and from then on). `ascii`: the caller knows
   * every byte of the chunk is below 128 (a pass of its own found no high bit), so only its first byte is looked at,
   * after a character the previous chunk cut.
   */
  push(bytes: Uint8Array, ascii?: boolean): boolean;
  /** Whether the whole stream was valid UTF-8 (a character cut off by the end is not). */
  end(): boolean;
}

/** Bytes of the sequence a lead byte starts; 1 for an ASCII byte and for bytes that start no valid sequence. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/**
 * Where the character left incomplete at the end of `bytes[from, to)` starts, or `to` when none is: at most three
 * bytes back, a lead byte followed only by continuation bytes, fewer than it needs.
 */
function incompleteTailStart(bytes: Uint8Array, from: number, to: number): number {
  for (let index = to - 1; index >= Math.max(from, to - 3); index--) {
    const byte = bytes[index]!;
    if (byte < 0x80) return to;
    if (byte >= 0xc0) return index + sequenceLength(byte) > to ? index : to;
  }
  return to;
}

/**
 * A strict streaming UTF-8 check that gives the verdict of `new TextDecoder('utf-8', { fatal: true })` fed the same
 * chunks, but creates no string: Node's `isUtf8` (SIMD) checks each chunk up to its last whole character, and the
 * few bytes of a character cut between two chunks are checked together once whole. On a 1 GiB ASCII log it costs
 * about 40 ms where decoding to throw the text away cost 1.7 s of decoding and 0.4 s of garbage collection; chunks a
 * SIMD pass of the caller's found plain ASCII cost nothing.
 */
export function createUtf8StreamCheck(): Utf8StreamCheck {
  const { isUtf8 } = nodeBuffer();
  let valid = true;
  // The start of a character cut by the end of the previous chunk (one to three bytes).
  let carried: Uint8Array = new Uint8Array(0);
  return {
    push(bytes, ascii = false) {
      if (!valid) return false;
      if (ascii) {
        // Valid on its own and cutting no character, but no ASCII byte can finish one the last chunk cut.
        if (carried.length > 0 && bytes.length > 0) return (valid = false);
        return true;
      }
      let from = 0;
      if (carried.length > 0) {
        const missing = sequenceLength(carried[0]!) - carried.length;
        const taken = bytes.subarray(0, missing);
        const joined = new Uint8Array(carried.length + taken.length);
        joined.set(carried);
        joined.set(taken, carried.length);
        if (taken.length < missing) {
          carried = joined; // still not whole: a chunk of one or two bytes
          return true;
        }
        carried = new Uint8Array(0);
        if (!isUtf8(joined)) return (valid = false);
        from = missing;
      }
      const whole = incompleteTailStart(bytes, from, bytes.length);
      if (whole > from && !isUtf8(bytes.subarray(from, whole))) return (valid = false);
      // A copy: the caller reuses its read buffer (and a Buffer's `slice` would be a view).
      if (whole < bytes.length) carried = Uint8Array.from(bytes.subarray(whole));
      return true;
    },
    end() {
      if (carried.length > 0) valid = false;
      carried = new Uint8Array(0);
      return valid;
    },
  };
}
