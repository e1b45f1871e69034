// The reference of the StrReplaceFile row beyond V8's string limit, as small as a streaming edit gets in Node: read the
// file in chunks, find the match (it must be unique), write the file with it replaced into a temp file beside it and
// rename that over the file (no fsync).
// Usage: str-replace-streaming-reference.ts FILE OLD NEW
import { open, rename } from 'node:fs/promises';

const [file, oldText, newText] = process.argv.slice(2);
if (file === undefined || oldText === undefined || newText === undefined) {
  throw new Error('usage: str-replace-streaming-reference.ts FILE OLD NEW');
}
const needle = Buffer.from(oldText);
const source = await open(file, 'r');
const size = (await source.stat()).size;
const buffer = Buffer.allocUnsafe(8 << 20);
const matches: number[] = [];
let bufferStart = 0;
let filled = 0;
while (bufferStart + filled < size) {
  const { bytesRead } = await source.read(buffer, filled, buffer.length - filled, bufferStart + filled);
  if (bytesRead === 0) break;
  filled += bytesRead;
  const searchFrom = Math.max(0, (matches.at(-1) ?? -1) + 1 - bufferStart);
  for (
    let at = buffer.indexOf(needle, searchFrom);
    at !== -1 && at + needle.length <= filled;
    at = buffer.indexOf(needle, at + 1)
  ) {
    matches.push(bufferStart + at);
  }
  const keep = Math.min(filled, needle.length - 1);
  buffer.copy(buffer, 0, filled - keep, filled);
  bufferStart += filled - keep;
  filled = keep;
}
if (matches.length !== 1) throw new Error(`no unique match (${matches.length})`);
const at = matches[0]!;
const tempPath = `${file}.reference-tmp`;
const target = await open(tempPath, 'w');
let written = 0;
const copy = async (from: number, to: number) => {
  for (let position = from; position < to;) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, to - position), position);
    await target.write(buffer, 0, bytesRead, written);
    written += bytesRead;
    position += bytesRead;
  }
};
await copy(0, at);
const replacement = Buffer.from(newText);
await target.write(replacement, 0, replacement.length, written);
written += replacement.length;
await copy(at + needle.length, size);
await target.close();
await source.close();
await rename(tempPath, file);
