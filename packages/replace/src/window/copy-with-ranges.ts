import type { OpenFile } from '@kimi-tools/core/fs';
import type { WindowTuning } from './window-tuning.js';

/** A range of the old file, `[start, end)`, and the bytes that replace it. */
export interface ReplacedRange {
  start: number;
  end: number;
  bytes: Uint8Array;
}

async function writeAll(target: OpenFile, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    done += (await target.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
  }
}

/**
 * Writes the new file into `target`: the old bytes of `source` (`size` of them) with each range (sorted, disjoint)
 * replaced, copied through one buffer of `chunkBytes` (or `buffer`, the scan's) so memory stays bounded whatever the
 * file's size. Stops with the signal's reason between chunks when it is aborted (the atomic write then removes the
 * temp file).
 */
export async function copyWithRanges(
  source: OpenFile,
  size: number,
  ranges: readonly ReplacedRange[],
  target: OpenFile,
  options: {
    chunkBytes: WindowTuning['chunkBytes'];
    buffer?: Buffer | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<void> {
  const buffer = options.buffer ?? Buffer.allocUnsafe(Math.max(1, Math.min(options.chunkBytes, size)));
  let written = 0;
  const copy = async (from: number, to: number) => {
    for (let at = from; at < to;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, to - at), at);
      if (bytesRead === 0) throw new Error(`The file ended at byte ${at} while it was edited.`);
      await writeAll(target, buffer.subarray(0, bytesRead), written);
      written += bytesRead;
      at += bytesRead;
    }
  };
  let at = 0;
  for (const range of ranges) {
    await copy(at, range.start);
    await writeAll(target, range.bytes, written);
    written += range.bytes.length;
    at = range.end;
  }
  await copy(at, size);
}
