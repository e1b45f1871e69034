// The floor under any Node ReadFile that reports the total line count: a fresh Node process, no imports, that reads
// the whole file, counts its line feeds with WebAssembly SIMD and prints the PAGE_LINES lines from LINE on, as
// `tail | head` does, then the total. MODE `sync` (default): `readSync` of 256 KiB into one buffer (fits the CPU's L2
// cache, so the kernel's copy and the count stay in it; the lowest CPU time found, 64 KiB to 4 MiB tried). MODE
// `async`: 4 MiB reads, three running on the thread pool while one is counted (on idle cores the copies overlap; each
// read is a hand-off to the pool and back, so 1 MiB reads cost about 80 ms more over the 1 GiB log, 8 MiB no less;
// three in flight about 20 ms less than two, four no less).
// MODE `async-after-import`: first imports and builds ReadFile as the bench's ReadFile process does (no call), then
// reads as `async`: the floor under a ReadFile that has to be loaded first.
// Usage: read-file-floor.ts FILE LINE PAGE_LINES [MODE]
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

const [file, lineArgument, pageArgument, mode = 'sync'] = process.argv.slice(2);
if (file === undefined || lineArgument === undefined || pageArgument === undefined) {
  throw new Error('usage: read-file-floor.ts FILE LINE PAGE_LINES');
}
const firstLine = Number(lineArgument);
const pageLines = Number(pageArgument);
const inFlight = mode !== 'sync';
const CHUNK = inFlight ? 4 << 20 : 1 << 18;
const BUFFERS = inFlight ? 4 : 1;
if (mode === 'async-after-import') {
  const { buildReadFile } = await import('../tools.js');
  await buildReadFile(path.dirname(file));
}

// count(ptr, len) -> i32: bytes equal to 10 in [ptr, ptr + len), len a multiple of 16 (SIMD: compare 16 bytes, take
// the bitmask, popcount it).
// prettier-ignore
const COUNT_BODY = [
  0x01, 0x02, 0x7f, // locals 2 end, 3 count (i32)
  0x20, 0, 0x20, 1, 0x6a, 0x21, 2, // end = ptr + len
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0, 0x20, 2, 0x4f, 0x0d, 1, // if ptr >= end: break
  0x20, 0, 0xfd, 0x00, 0x00, 0, 0x41, 10, 0xfd, 0x0f, 0xfd, 0x23, 0xfd, 0x64, 0x69, // popcnt(bitmask(load == 10))
  0x20, 3, 0x6a, 0x21, 3, // count += it
  0x20, 0, 0x41, 16, 0x6a, 0x21, 0, // ptr += 16
  0x0c, 0, 0x0b, 0x0b, // continue; end loop, end block
  0x20, 3, 0x0b, // return count
];
const pages = Math.ceil((CHUNK * BUFFERS) / 65_536);
// prettier-ignore
const wasmBytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // type (i32 i32) -> i32
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x05, 0x04, 0x01, 0x00, pages & 0x7f | 0x80, pages >> 7, // one memory of `pages` (two-byte LEB128)
  0x07, 0x12, 0x02, 0x05, 0x63, 0x6f, 0x75, 0x6e, 0x74, 0x00, 0x00, // export "count"
  0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, // export "memory"
  0x0a, COUNT_BODY.length + 2, 0x01, COUNT_BODY.length, ...COUNT_BODY,
]);
interface Exports {
  count(pointer: number, length: number): number;
  memory: { buffer: ArrayBuffer };
}
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Instance: new (module: object) => { exports: Exports };
      Module: new (bytes: Uint8Array) => object;
    };
  }
).WebAssembly;
const { count, memory } = new wasm.Instance(new wasm.Module(wasmBytes)).exports;
const buffers = Array.from({ length: BUFFERS }, (_, index) =>
  Buffer.from(memory.buffer, index * CHUNK, CHUNK),
);

function countLineFeeds(bytes: Buffer): number {
  const blocks = bytes.length & ~15;
  let found = count(bytes.byteOffset, blocks);
  for (let index = blocks; index < bytes.length; index++) if (bytes[index] === 10) found++;
  return found;
}

// Lines seen before the current chunk; the page's bytes, collected from the start of `firstLine` on.
let lines = 0;
const page: Buffer[] = [];
let pageDone = false;

/** One chunk: counted in bulk, unless the page starts or goes on in it. */
function take(bytes: Buffer): void {
  const lineFeeds = countLineFeeds(bytes);
  if (pageDone || lines + lineFeeds < firstLine - 1) {
    lines += lineFeeds;
    return;
  }
  let index = 0;
  let line = lines + 1;
  while (line < firstLine) {
    index = bytes.indexOf(10, index) + 1;
    line += 1;
  }
  const pageStart = index;
  let shown =
    page.length === 0 ? 0 : page.reduce((sum, piece) => sum + piece.filter((byte) => byte === 10).length, 0);
  while (shown < pageLines) {
    const found = bytes.indexOf(10, index);
    if (found === -1) {
      index = bytes.length;
      break;
    }
    index = found + 1;
    shown += 1;
  }
  page.push(Buffer.from(bytes.subarray(pageStart, index)));
  pageDone = shown >= pageLines;
  lines += lineFeeds;
}

if (inFlight) {
  const handle = await open(file, 'r');
  const size = (await handle.stat()).size;
  const reads: Array<Promise<{ bytesRead: number; buffer: Buffer }>> = [];
  let next = 0;
  let turn = 0;
  const issue = () => {
    if (next >= size) return;
    reads.push(handle.read(buffers[turn]!, 0, CHUNK, next));
    turn = (turn + 1) % BUFFERS;
    next += CHUNK;
  };
  for (let index = 1; index < BUFFERS; index++) issue();
  for (let read = reads.shift(); read; read = reads.shift()) {
    const { bytesRead, buffer } = await read;
    issue();
    take(buffer.subarray(0, bytesRead));
  }
  await handle.close();
} else {
  const fd = openSync(file, 'r');
  const buffer = buffers[0]!;
  for (let bytesRead = readSync(fd, buffer); bytesRead > 0; bytesRead = readSync(fd, buffer)) {
    take(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
  }
  closeSync(fd);
}
process.stdout.write(Buffer.concat(page));
process.stdout.write(`Total lines in file: ${lines}.\n`);
