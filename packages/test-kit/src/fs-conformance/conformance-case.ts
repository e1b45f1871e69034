import type { Readable } from 'node:stream';
import type { FileSystem, FileTypeTests } from '@kimi-tools/core/fs';
import { expect } from 'vitest';

/** A feature some backends lack; a case that needs it is skipped, with the reason the backend declared. */
export type ConformanceFeature = 'fifo';

/** What one case of the conformance suite works with: the backend and a fresh empty directory on it. */
export interface CaseContext {
  readonly fs: FileSystem;
  /** The empty directory of this case, by its canonical path. */
  readonly root: string;
  /** `root/relative`: paths in the suite are POSIX paths. */
  at(relative: string): string;
  /** Writes a new file under `root` through the backend (`create`, `write` until done, `close`); returns its path. */
  write(relative: string, content: string | Uint8Array, mode?: number): Promise<string>;
  /** A whole file read through the backend (`open('read')`, `read` until 0 bytes, `close`). */
  read(path: string): Promise<Buffer>;
  /** Makes a FIFO (only in the cases that need the `fifo` feature). */
  mkfifo(path: string): Promise<void>;
  /** Skips the rest of the case, saying why (a capability the backend says it lacks). */
  skip(note: string): never;
}

/** One promise of the interface, checked against a backend. */
export interface ConformanceCase {
  readonly name: string;
  /** A feature the case cannot run without. */
  readonly needs?: ConformanceFeature;
  run(context: CaseContext): Promise<void>;
}

/** The bytes of `text` (UTF-8), or the bytes given. */
export function bytesOf(content: string | Uint8Array): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
}

/** Writes all of `content` at `position` through an open file, looping over short writes as callers must. */
export async function writeFully(
  file: {
    write(
      buffer: Uint8Array,
      offset: number,
      length: number,
      position: number,
    ): Promise<{ bytesWritten: number }>;
  },
  content: Uint8Array,
  position = 0,
): Promise<void> {
  let done = 0;
  while (done < content.length) {
    const { bytesWritten } = await file.write(content, done, content.length - done, position + done);
    if (bytesWritten <= 0) throw new Error(`write made no progress at byte ${position + done}`);
    done += bytesWritten;
  }
}

/** Creates `path` and writes `content` into it, through the backend. */
export async function writeThrough(
  fs: FileSystem,
  path: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<void> {
  const file = await fs.create(path, mode);
  try {
    await writeFully(file, bytesOf(content));
  } finally {
    await file.close();
  }
}

/** Reads `path` whole through the backend, in chunks, until a read returns 0 bytes. */
export async function readThrough(fs: FileSystem, path: string): Promise<Buffer> {
  const file = await fs.open(path, 'read');
  try {
    const chunks: Buffer[] = [];
    let position = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return Buffer.concat(chunks);
      chunks.push(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await file.close();
  }
}

/** Asserts that `operation` rejects with an `Error` whose `code` is `code` (the interface's only error contract). */
export async function expectCode(operation: Promise<unknown>, code: string): Promise<void> {
  const outcome = await operation.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection with ${code}, but it resolved`);
  expect(outcome.error).toBeInstanceOf(Error);
  expect((outcome.error as { code?: unknown }).code).toBe(code);
}

/** Everything a stream gives until it ends, as UTF-8 text. */
export async function streamText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

const TYPE_TESTS = [
  'isFile',
  'isDirectory',
  'isSymbolicLink',
  'isFIFO',
  'isSocket',
  'isCharacterDevice',
  'isBlockDevice',
] as const;

/** The type tests that are true of `entry` (a well-formed entry has exactly one). */
export function typeOf(entry: FileTypeTests): string[] {
  return TYPE_TESTS.filter((test) => entry[test]());
}

/** The type bits of `st_mode`. */
export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;
export const S_IFIFO = 0o010000;
