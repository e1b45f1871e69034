import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import { openRegularFile, readHandleAtMost } from '@kimi-tools/core/toolkit';
import { SEARCH_ABORTED_MESSAGE } from '../errors.js';
import { byteOrderMark } from './byte-order-mark.js';

/**
 * Bytes read at least at a time. A page asks first about its last line of each file, so one read most often covers
 * them all: a small floor keeps a page's reads, all under way at once, from holding much memory.
 */
export const FIRST_READ_BYTES = 4 * 1024;

/** Bytes read at most at a time: a line deep in a big file is reached in steps of this. */
const MAX_READ_BYTES = 1024 * 1024;

/** How far one file has been read, and the lone `\r` found so far. */
interface FileScan {
  /** Bytes of the file read (its byte order mark included). */
  read: number;
  /** Of what ripgrep searched (the file after a byte order mark, UTF-16 transcoded to UTF-8): the bytes scanned. */
  scanned: number;
  /** The file's UTF-16 decoder; `null` for a file ripgrep searches as it is; `undefined` before the first read. */
  utf16: InstanceType<typeof TextDecoder> | null | undefined;
  /** The last byte scanned is a `\r`, lone or not as the next byte says. */
  endsInCarriageReturn: boolean;
  /** Offsets (in what ripgrep searched) of the lone `\r` scanned, in increasing order. */
  found: number[];
  /** Read to its end. */
  complete: boolean;
  /** The file could not be read (gone, unreadable): its lines keep ripgrep's numbers. */
  failed: boolean;
  /** The read under way: a file is read by one call at a time. */
  reading: Promise<void> | undefined;
}

/**
 * Counts the lone `\r` (a `\r` not followed by `\n`) before a line ripgrep printed. ReadFile ends a line there too
 * (docs/read-file.md), ripgrep only at `\n`: ripgrep's line number plus that count is ReadFile's. Only the lines a page
 * shows are asked about, and only when line numbers are shown: each file is read once, as far as its last shown line
 * (asked first, so the files of a page are read together), by one call at a time. Offsets are ripgrep's: in the file
 * after a UTF-8 byte order mark, or in ripgrep's UTF-8 transcoding of a UTF-16 file. A file that cannot be read keeps
 * ripgrep's numbers.
 */
export class LoneCrCounter {
  private readonly files = new Map<string, FileScan>();

  constructor(
    private readonly fs: FileSystem,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** The lone `\r` in `file` before byte `offset` of what ripgrep searched (its `--byte-offset` of a line). */
  async before(file: string, offset: number): Promise<number> {
    let scan = this.files.get(file);
    if (scan === undefined) {
      scan = {
        read: 0,
        scanned: 0,
        utf16: undefined,
        endsInCarriageReturn: false,
        found: [],
        complete: false,
        failed: false,
        reading: undefined,
      };
      this.files.set(file, scan);
    }
    while (scan.reading !== undefined) await scan.reading;
    if (!scan.failed && !scan.complete && offset > scan.scanned) {
      scan.reading = this.scan(file, scan, Math.max(offset, scan.scanned * 2, FIRST_READ_BYTES))
        .catch(() => {
          scan.failed = true;
        })
        .finally(() => {
          scan.reading = undefined;
        });
      await scan.reading;
      if (this.signal?.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
    }
    return scan.failed ? 0 : countBelow(scan.found, offset);
  }

  /** Scans `file` on from where `scan` stopped, until `target` bytes of what ripgrep searched are (or its end). */
  private async scan(file: string, scan: FileScan, target: number): Promise<void> {
    const opened = await openRegularFile(this.fs, file);
    if (typeof opened === 'string') throw new Error(`${file}: ${opened}`);
    const { handle } = opened;
    try {
      while (scan.scanned < target && !scan.complete) {
        if (this.signal?.aborted) throw new Error(SEARCH_ABORTED_MESSAGE);
        scanBytes(scan, await readOn(handle, scan, Math.min(target - scan.scanned, MAX_READ_BYTES)));
      }
    } finally {
      await handle.close();
    }
  }
}

/**
 * The next bytes of what ripgrep searched, about `wanted` of them (more for the byte order mark, UTF-16 read whole
 * characters at a time); sets `complete` at the file's end.
 */
async function readOn(handle: OpenFile, scan: FileScan, wanted: number): Promise<Buffer> {
  const bytes = Buffer.alloc(wanted + 3);
  // A read may return fewer bytes than asked anywhere (SFTP: a server's packet size): only 0 is the end.
  const bytesRead = await readHandleAtMost(handle, bytes, 0, bytes.length, scan.read);
  scan.complete = bytesRead < bytes.length;
  let read = bytes.subarray(0, bytesRead);
  if (scan.utf16 === undefined) {
    const mark = byteOrderMark(read);
    scan.utf16 = mark.utf16 === null ? null : new TextDecoder(mark.utf16, { ignoreBOM: true });
    read = read.subarray(mark.length);
  }
  scan.read += bytesRead;
  if (scan.utf16 === null) return read;
  return Buffer.from(scan.utf16.decode(read, { stream: !scan.complete }), 'utf8');
}

/** Records the lone `\r` of `bytes`, the next of what ripgrep searched. */
function scanBytes(scan: FileScan, bytes: Buffer): void {
  if (scan.endsInCarriageReturn && bytes[0] !== 0x0a && (bytes.length > 0 || scan.complete)) {
    scan.found.push(scan.scanned - 1);
  }
  // A `\r` that ends the bytes scanned is lone or not as the next bytes tell, unless the file ends there.
  for (let at = bytes.indexOf(0x0d); at >= 0; at = bytes.indexOf(0x0d, at + 1)) {
    if (at + 1 < bytes.length ? bytes[at + 1] !== 0x0a : scan.complete) scan.found.push(scan.scanned + at);
  }
  if (bytes.length > 0) scan.endsInCarriageReturn = !scan.complete && bytes[bytes.length - 1] === 0x0d;
  else if (scan.complete) scan.endsInCarriageReturn = false;
  scan.scanned += bytes.length;
}

/** How many of the increasing `values` are below `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
