/**
 * Counting line breaks is most of the work of a deep read into a big file. This tiny WebAssembly module (built
 * here byte by byte, 128-bit SIMD: compare 16 bytes at once) counts them several times faster than a loop of
 * `Buffer.indexOf` calls, and its survey notes in the same pass what else the scan must know of a chunk. The file is
 * read straight into the module's memory, so nothing is copied. Where WebAssembly SIMD is unavailable the splitter
 * simply keeps its JavaScript path.
 */

/** Read buffers living in WebAssembly memory, and counters of bytes in them. */
export interface LineFeedCounter {
  /** The read buffers, `chunkBytes` each, taken in turn by reads that run ahead of the counting. */
  readonly buffers: readonly Buffer[];
  /** How many bytes equal to 10 lie in `bytes[from, to)`; `undefined` when `bytes` is not one of `buffers`. */
  countLineFeeds(bytes: Buffer, from: number, to: number): number | undefined;
  /** How many bytes equal to `byte` lie in `bytes[from, to)`; `undefined` when `bytes` is not one of `buffers`. */
  countByte(bytes: Buffer, from: number, to: number, byte: number): number | undefined;
  /** How many `\r\n` pairs start in `bytes[from, to)` (the `\n` may be at `to`); `undefined` as above. */
  countCrLf(bytes: Buffer, from: number, to: number): number | undefined;
  /**
   * All of `bytes` in one pass: its line feeds, and whether it holds a `\r`, a `00` or a byte above 127; `undefined`
   * as above.
   */
  surveyChunk(bytes: Buffer): ChunkSurvey | undefined;
}

/** What one pass over a read chunk found. */
export interface ChunkSurvey {
  lineFeeds: number;
  hasCR: boolean;
  hasNul: boolean;
  /** Every byte is below 128: the chunk is plain ASCII, valid UTF-8 whatever its neighbours hold. */
  ascii: boolean;
}

const PAGE_BYTES = 65_536;
const BLOCK_BYTES = 64; // the loop compares four 16-byte vectors per turn (and adds 64 to the pointer)

function leb128(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

function sleb128(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const section = (id: number, content: number[]) => [id, ...leb128(content.length), ...content];
const name = (text: string) => [...leb128(text.length), ...Array.from(text, (char) => char.charCodeAt(0))];

// count(ptr, len, byte) -> i32, for len a multiple of 64. Locals: 3 end, 4 count, 5 needle (v128).
function compareAndCount(offset: number): number[] {
  // local.get ptr; v128.load offset; local.get needle; i8x16.eq; i8x16.bitmask; i32.popcnt; count += it
  return [0x20, 0, 0xfd, 0x00, 0x00, offset, 0x20, 5, 0xfd, 0x23, 0xfd, 0x64, 0x69, 0x20, 4, 0x6a, 0x21, 4];
}

// prettier-ignore
const COUNT_BODY = [
  0x02, 0x02, 0x7f, 0x01, 0x7b, // locals: 2 x i32, 1 x v128
  0x20, 2, 0xfd, 0x0f, 0x21, 5, // needle = i8x16.splat(byte)
  0x20, 0, 0x20, 1, 0x6a, 0x21, 3, // end = ptr + len
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0, 0x20, 3, 0x4f, 0x0d, 1, // if ptr >= end: break
  ...compareAndCount(0),
  ...compareAndCount(16),
  ...compareAndCount(32),
  ...compareAndCount(48),
  0x20, 0, 0x41, 0xc0, 0x00, 0x6a, 0x21, 0, // ptr += 64 (i32.const is signed LEB128: 64 is 0xC0 0x00)
  0x0c, 0, 0x0b, 0x0b, // continue; end loop, end block
  0x20, 4, 0x0b, // return count
];

// pairs(ptr, len) -> i32: positions p in [ptr, ptr+len), len a multiple of 16, with byte p = 13 and byte p+1 = 10.
// Locals: 2 end, 3 count, 4 cr (v128), 5 lf (v128).
// prettier-ignore
const PAIRS_BODY = [
  0x02, 0x02, 0x7f, 0x02, 0x7b, // locals: 2 x i32, 2 x v128
  0x41, 13, 0xfd, 0x0f, 0x21, 4, // cr = i8x16.splat(13)
  0x41, 10, 0xfd, 0x0f, 0x21, 5, // lf = i8x16.splat(10)
  0x20, 0, 0x20, 1, 0x6a, 0x21, 2, // end = ptr + len
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0, 0x20, 2, 0x4f, 0x0d, 1, // if ptr >= end: break
  0x20, 0, 0xfd, 0x00, 0x00, 0, 0x20, 4, 0xfd, 0x23, // bytes [ptr, ptr+16) == 13
  0x20, 0, 0xfd, 0x00, 0x00, 1, 0x20, 5, 0xfd, 0x23, // bytes [ptr+1, ptr+17) == 10
  0xfd, 0x4e, 0xfd, 0x64, 0x69, 0x20, 3, 0x6a, 0x21, 3, // count += popcnt(bitmask(and))
  0x20, 0, 0x41, 16, 0x6a, 0x21, 0, // ptr += 16
  0x0c, 0, 0x0b, 0x0b, // continue; end loop, end block
  0x20, 3, 0x0b, // return count
];

// survey(ptr, len) -> i32, for len a multiple of 64: the line feeds, and in the same pass (each 16 bytes loaded once)
// whether a 13, a 0 or a byte above 127 occurs; global 0 is set to 1 when a 0 byte was seen, plus 2 when a 13 was,
// plus 4 when a byte above 127 was. One pass instead of four (count, then `indexOf(13)`, `indexOf(0)` and a UTF-8
// check of chunks that are plain ASCII). Line feeds are tallied per byte lane (`tally -= bytes == 10`, a match being
// -1) and summed every 63 blocks, before a lane can pass 255; a 0 byte is found as a lane of the running minimum
// being 0, a high byte as a high bit in the running OR. Locals: 2 end, 3 count, 4 stop (i32); 5 lf, 6 cr, 7 tally,
// 8 seen cr, 9 lowest, 10 highs, 11 bytes (v128).
const SURVEY = {
  end: 2,
  count: 3,
  stop: 4,
  lf: 5,
  cr: 6,
  tally: 7,
  seenCR: 8,
  lowest: 9,
  highs: 10,
  bytes: 11,
};
const SURVEY_RUN_BLOCKS = 63; // a lane gains at most 4 per block (one per vector): 63 x 4 = 252 ≤ 255
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];

function surveyVector(offset: number): number[] {
  const { bytes, tally, lf, seenCR, cr, lowest, highs } = SURVEY;
  // prettier-ignore
  return [
    ...get(0), 0xfd, 0x00, 0x00, offset, ...set(bytes), // bytes = load(ptr + offset)
    ...get(tally), ...get(bytes), ...get(lf), 0xfd, 0x23, 0xfd, 0x71, ...set(tally), // tally -= bytes == lf
    ...get(seenCR), ...get(bytes), ...get(cr), 0xfd, 0x23, 0xfd, 0x50, ...set(seenCR), // seen cr |= bytes == cr
    ...get(lowest), ...get(bytes), 0xfd, 0x77, ...set(lowest), // lowest = min_u(lowest, bytes)
    ...get(highs), ...get(bytes), 0xfd, 0x50, ...set(highs), // highs |= bytes
  ];
}

const { end: END, count: COUNT, stop: STOP, tally: TALLY } = SURVEY;
// prettier-ignore
const SURVEY_BODY = [
  0x02, 0x03, 0x7f, 0x07, 0x7b, // locals: 3 x i32, 7 x v128
  0x41, 10, 0xfd, 0x0f, ...set(SURVEY.lf), // lf = i8x16.splat(10)
  0x41, 13, 0xfd, 0x0f, ...set(SURVEY.cr), // cr = i8x16.splat(13)
  0x41, 0x7f, 0xfd, 0x0f, ...set(SURVEY.lowest), // lowest = i8x16.splat(-1): every lane 255
  ...get(0), ...get(1), 0x6a, ...set(END), // end = ptr + len
  0x02, 0x40, 0x03, 0x40, // block, loop: one run of at most 63 blocks
  ...get(0), ...get(END), 0x4f, 0x0d, 1, // if ptr >= end: break
  ...get(0), 0x41, ...sleb128(SURVEY_RUN_BLOCKS * BLOCK_BYTES), 0x6a, ...set(STOP), // stop = ptr + 63 blocks
  ...get(STOP), ...get(END), ...get(STOP), ...get(END), 0x49, 0x1b, ...set(STOP), // stop = min(stop, end)
  0xfd, 0x0c, ...new Array<number>(16).fill(0), ...set(TALLY), // tally = 0
  0x02, 0x40, 0x03, 0x40, // block, loop: one block
  ...get(0), ...get(STOP), 0x4f, 0x0d, 1, // if ptr >= stop: break
  ...surveyVector(0),
  ...surveyVector(16),
  ...surveyVector(32),
  ...surveyVector(48),
  ...get(0), 0x41, 0xc0, 0x00, 0x6a, ...set(0), // ptr += 64
  0x0c, 0, 0x0b, 0x0b, // continue; end loop, end block
  // count += the sum of tally's 16 lanes (widened pairwise to 4 lanes of i32, then added)
  ...get(TALLY), 0xfd, 0x7d, 0xfd, 0x7f, ...set(TALLY),
  ...get(COUNT),
  ...get(TALLY), 0xfd, 0x1b, 0, 0x6a,
  ...get(TALLY), 0xfd, 0x1b, 1, 0x6a,
  ...get(TALLY), 0xfd, 0x1b, 2, 0x6a,
  ...get(TALLY), 0xfd, 0x1b, 3, 0x6a,
  ...set(COUNT),
  0x0c, 0, 0x0b, 0x0b, // continue; end loop, end block
  ...get(SURVEY.lowest), 0xfd, 0x63, 0x45, // a lane of lowest is 0: !all_true
  ...get(SURVEY.seenCR), 0xfd, 0x53, 0x41, 1, 0x74, 0x72, // | any(seen cr) << 1
  ...get(SURVEY.highs), 0xfd, 0x64, 0x41, 0, 0x47, 0x41, 2, 0x74, 0x72, // | (bitmask(highs) != 0) << 2
  0x24, 0, // global 0 = the flags
  ...get(COUNT), 0x0b, // return count
];

function moduleBytes(pages: number): Uint8Array {
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [2, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]), // (i32 i32 i32)->i32, (i32 i32)->i32
    ...section(3, [3, 0, 1, 1]), // count: type 0, pairs and survey: type 1
    ...section(5, [1, 0, ...leb128(pages)]), // one memory, no maximum
    ...section(6, [1, 0x7f, 0x01, 0x41, 0, 0x0b]), // global 0: mutable i32, 0
    ...section(7, [
      5,
      ...name('count'), 0x00, 0,
      ...name('pairs'), 0x00, 1,
      ...name('survey'), 0x00, 2,
      ...name('seen'), 0x03, 0,
      ...name('memory'), 0x02, 0,
    ]), // exports
    ...section(10, [
      3,
      ...leb128(COUNT_BODY.length), ...COUNT_BODY,
      ...leb128(PAIRS_BODY.length), ...PAIRS_BODY,
      ...leb128(SURVEY_BODY.length), ...SURVEY_BODY,
    ]), // code
  ]);
}

/** The part of the WebAssembly API used here (the project's TypeScript lib has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

/**
 * A counter with `bufferCount` read buffers of `chunkBytes`, or `undefined` when WebAssembly SIMD is not available.
 */
export function createLineFeedCounter(chunkBytes: number, bufferCount = 2): LineFeedCounter | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return undefined;
  let exports: Record<string, unknown>;
  try {
    // One page more than the buffers: `pairs` looks one byte past its range.
    const pages = Math.ceil((bufferCount * chunkBytes) / PAGE_BYTES) + 1;
    exports = new wasm.Instance(new wasm.Module(moduleBytes(pages))).exports;
  } catch {
    return undefined;
  }
  const memory = exports['memory'] as { buffer: ArrayBuffer };
  const count = exports['count'] as (pointer: number, length: number, byte: number) => number;
  const pairs = exports['pairs'] as (pointer: number, length: number) => number;
  const survey = exports['survey'] as (pointer: number, length: number) => number;
  const seen = exports['seen'] as { value: number };
  const own = (bytes: Buffer) => bytes.buffer === memory.buffer;
  const countByte = (bytes: Buffer, from: number, to: number, byte: number) => {
    const blocks = Math.max(0, to - from) & ~(BLOCK_BYTES - 1);
    let found = blocks > 0 ? count(bytes.byteOffset + from, blocks, byte) : 0;
    for (let index = from + blocks; index < to; index++) if (bytes[index] === byte) found++;
    return found;
  };
  const buffers = Array.from({ length: bufferCount }, (_, index) =>
    Buffer.from(memory.buffer, index * chunkBytes, chunkBytes),
  );
  return {
    buffers,
    countLineFeeds: (bytes, from, to) => (own(bytes) ? countByte(bytes, from, to, 10) : undefined),
    countByte: (bytes, from, to, byte) => (own(bytes) ? countByte(bytes, from, to, byte) : undefined),
    countCrLf(bytes, from, to) {
      if (!own(bytes)) return undefined;
      const blocks = Math.max(0, to - from) & ~15;
      let found = blocks > 0 ? pairs(bytes.byteOffset + from, blocks) : 0;
      for (let index = from + blocks; index < to; index++) {
        if (bytes[index] === 13 && bytes[index + 1] === 10) found++;
      }
      return found;
    },
    surveyChunk(bytes) {
      if (!own(bytes)) return undefined;
      const blocks = bytes.length & ~(BLOCK_BYTES - 1);
      let lineFeeds = 0;
      let flags = 0;
      if (blocks > 0) {
        lineFeeds = survey(bytes.byteOffset, blocks);
        flags = seen.value;
      }
      for (let index = blocks; index < bytes.length; index++) {
        const byte = bytes[index]!;
        if (byte === 10) lineFeeds++;
        else if (byte === 13) flags |= 2;
        else if (byte === 0) flags |= 1;
        else if (byte > 127) flags |= 4;
      }
      return {
        lineFeeds,
        hasCR: (flags & 2) !== 0,
        hasNul: (flags & 1) !== 0,
        ascii: (flags & 4) === 0,
      };
    },
  };
}
