import type { Dirent } from 'node:fs';
import type { DirEntry } from './file-system.js';
import {
  errorNamingPaths,
  hasLoneSurrogate,
  mayHaveLostBytes,
  nameFromBytes,
  nodePath,
} from './byte-names.js';

// The local disk's side of names that are not UTF-8 (byte-names.ts): Node is asked for strings, which cost least, and
// asked again for bytes only when a string holds U+FFFD, where Node may have written a byte it could not decode.

const { readdir, promises: fs } = process.getBuiltinModule('node:fs');

const WITH_FILE_TYPES = { withFileTypes: true } as const;
const AS_BYTES = { withFileTypes: true, encoding: 'buffer' } as const;
const BUFFER = { encoding: 'buffer' } as const;

/** An entry read as bytes, under the name those bytes stand for. */
class ByteNamedEntry implements DirEntry {
  readonly name: string;

  constructor(private readonly dirent: Dirent<Buffer>) {
    this.name = nameFromBytes(dirent.name);
  }

  isFile() {
    return this.dirent.isFile();
  }
  isDirectory() {
    return this.dirent.isDirectory();
  }
  isSymbolicLink() {
    return this.dirent.isSymbolicLink();
  }
  isFIFO() {
    return this.dirent.isFIFO();
  }
  isSocket() {
    return this.dirent.isSocket();
  }
  isCharacterDevice() {
    return this.dirent.isCharacterDevice();
  }
  isBlockDevice() {
    return this.dirent.isBlockDevice();
  }
}

/** Whether an entry's name may have lost bytes; a loop rather than `some`, as Glob's walk reads every name here. */
function anyNameMayHaveLostBytes(entries: readonly Dirent[]): boolean {
  for (let index = 0; index < entries.length; index++) {
    if (mayHaveLostBytes(entries[index]!.name)) return true;
  }
  return false;
}

/**
 * The entries of a directory with their types, through Node's callback API (no promise per directory: Glob's walk
 * reads thousands). A directory where a name holds U+FFFD is read again as bytes, so each such name comes as its
 * own bytes stand for it.
 */
export function readdirLocal(
  path: string,
  callback: (error: unknown, entries: readonly DirEntry[]) => void,
): void {
  // A well-formed path goes to Node as it is, with nothing but the check in between: through `nodePath` and its try
  // on every call, Glob's walk of the benchmark tree took 20 ms longer (30 alternating runs).
  if (hasLoneSurrogate(path)) return readdirOfBytes(path, callback);
  readdir(path, WITH_FILE_TYPES, (error, entries) => entriesRead(path, path, error, entries, callback));
}

/** {@link readdirLocal} of a path holding byte escapes: given to Node as its bytes. */
function readdirOfBytes(
  path: string,
  callback: (error: unknown, entries: readonly DirEntry[]) => void,
): void {
  let target: Buffer | string;
  try {
    target = nodePath(path);
  } catch (error) {
    callback(error, []);
    return;
  }
  readdir(target, WITH_FILE_TYPES, (error, entries) => entriesRead(path, target, error, entries, callback));
}

/** Hands on the entries read, or reads the directory again as bytes where a name may have lost some. */
function entriesRead(
  path: string,
  target: string | Buffer,
  error: unknown,
  entries: Dirent[],
  callback: (error: unknown, entries: readonly DirEntry[]) => void,
): void {
  if (error) return callback(errorNamingPaths(error, path), []);
  if (!anyNameMayHaveLostBytes(entries)) return callback(undefined, entries);
  readdir(target, AS_BYTES, (again, raw) => {
    if (again) return callback(errorNamingPaths(again, path), []);
    callback(
      undefined,
      raw.map((entry) => new ByteNamedEntry(entry)),
    );
  });
}

/** `realpath`, with a real path that holds a name that is not UTF-8 as that name's byte escapes. */
export async function realpathLocal(path: string): Promise<string> {
  const target = nodePath(path);
  try {
    const real = await fs.realpath(target);
    return mayHaveLostBytes(real) ? nameFromBytes(await fs.realpath(target, BUFFER)) : real;
  } catch (error) {
    throw errorNamingPaths(error, path);
  }
}

/** `readlink`, with a target that holds a name that is not UTF-8 as that name's byte escapes. */
export async function readlinkLocal(path: string): Promise<string> {
  const target = nodePath(path);
  try {
    const text = await fs.readlink(target);
    return mayHaveLostBytes(text) ? nameFromBytes(await fs.readlink(target, BUFFER)) : text;
  } catch (error) {
    throw errorNamingPaths(error, path);
  }
}
