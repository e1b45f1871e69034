// Names that are not UTF-8 (docs/paths.md#names-that-are-not-utf-8). A Linux name is bytes; Node decodes it as UTF-8
// and writes every byte that is no part of a valid character as U+FFFD, so `inv\xff.txt`, `inv\xfe.txt` and a real
// `inv\uFFFD.txt` would read alike. Here such a byte is carried as a lone low surrogate instead, byte 0x80–0xFF as
// U+DC80–U+DCFF (Python's "surrogateescape"): no well-formed string holds one, so the name stays distinct, and a
// name that is valid UTF-8 is the plain string it always was. This module is the one place that converts.

/** The escape of byte `b` is the code unit `ESCAPE_BASE + b`; only bytes 0x80–0xFF are ever escaped. */
const ESCAPE_BASE = 0xdc00;
const FIRST_ESCAPE = 0xdc80;
const LAST_ESCAPE = 0xdcff;

/** ES2024's checks, in Node since 20 (the project's TypeScript library is ES2023). */
type WellFormedString = string & { isWellFormed(): boolean; toWellFormed(): string };

/** Whether `text` holds a lone surrogate: a byte escape, or something that names no file at all. */
export function hasLoneSurrogate(text: string): boolean {
  return !(text as WellFormedString).isWellFormed();
}

/** Whether `bytes[at]` is a continuation byte in `[low, high]`: 0x80–0xBF, narrower after some lead bytes. */
function continues(bytes: Uint8Array, at: number, low = 0x80, high = 0xbf): boolean {
  const byte = bytes[at];
  return byte !== undefined && byte >= low && byte <= high;
}

/**
 * The length of the valid UTF-8 character at `bytes[at]` (strict, as a fatal `TextDecoder`: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 when the byte there starts none (it is then escaped alone).
 */
function characterLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return continues(bytes, at + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const second =
      lead === 0xe0
        ? continues(bytes, at + 1, 0xa0)
        : lead === 0xed
          ? continues(bytes, at + 1, 0x80, 0x9f)
          : continues(bytes, at + 1);
    return second && continues(bytes, at + 2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const second =
      lead === 0xf0
        ? continues(bytes, at + 1, 0x90)
        : lead === 0xf4
          ? continues(bytes, at + 1, 0x80, 0x8f)
          : continues(bytes, at + 1);
    return second && continues(bytes, at + 2) && continues(bytes, at + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * The name `bytes` stand for: the UTF-8 they hold decoded, and each byte that is no part of a valid character as its
 * escape (`inv\xff.txt` is `'inv\udcff.txt'`). Different bytes always give different names.
 */
export function nameFromBytes(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Node's own decoding, where it lost nothing: most names and most output are UTF-8.
  const decoded = buffer.toString('utf8');
  if (!mayHaveLostBytes(decoded)) return decoded;
  let name = '';
  let runStart = 0;
  let at = 0;
  while (at < buffer.length) {
    const length = characterLength(buffer, at);
    if (length > 0) {
      at += length;
      continue;
    }
    name += buffer.toString('utf8', runStart, at) + String.fromCharCode(ESCAPE_BASE + buffer[at]!);
    at += 1;
    runStart = at;
  }
  return name + buffer.toString('utf8', runStart);
}

/**
 * The bytes `text` stands for: its characters in UTF-8 and each byte escape as its byte; `undefined` when it holds a
 * lone surrogate that is no byte escape (a high one, or U+DC00–U+DC7F), which names no file.
 */
export function bytesOfName(text: string): Buffer | undefined {
  const parts: Buffer[] = [];
  let runStart = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        at += 1;
        continue;
      }
      return undefined;
    }
    if (unit < FIRST_ESCAPE || unit > LAST_ESCAPE) return undefined;
    parts.push(Buffer.from(text.slice(runStart, at), 'utf8'), Buffer.of(unit - ESCAPE_BASE));
    runStart = at + 1;
  }
  parts.push(Buffer.from(text.slice(runStart), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * How many bytes `text` stands for ({@link bytesOfName}): a byte escape is one byte, where UTF-8 would write it as the
 * three of U+FFFD. A lone surrogate that is no byte escape counts those three, as UTF-8 writes it.
 */
export function byteLengthOfName(text: string): number {
  if (!hasLoneSurrogate(text)) return Buffer.byteLength(text);
  return (bytesOfName(text) ?? Buffer.from(text)).length;
}

/**
 * Whether `text` is a name as {@link nameFromBytes} gives it: its lone surrogates are byte escapes, and none of them
 * escapes a byte that is part of a valid character (`\udcc3\udca9` would be the bytes of `é`, which is shown `é`).
 * Only such a path is taken: any other would reach a file under a name it is never shown by.
 */
export function isByteName(text: string): boolean {
  const bytes = bytesOfName(text);
  return bytes !== undefined && nameFromBytes(bytes) === text;
}

/**
 * A path as Node's `fs` takes it: the string itself when it is well-formed (every name valid UTF-8, the common case,
 * one native check), else its bytes (Node takes a `Buffer` path everywhere). A lone surrogate that is no byte escape
 * is refused with `EINVAL`: written as UTF-8 it would become U+FFFD and name another file.
 */
export function nodePath(path: string): string | Buffer {
  if (!hasLoneSurrogate(path)) return path;
  const bytes = bytesOfName(path);
  if (bytes === undefined) {
    throw Object.assign(
      new Error(`EINVAL: a lone surrogate names no file, '${(path as WellFormedString).toWellFormed()}'`),
      {
        code: 'EINVAL',
      },
    );
  }
  return bytes;
}

/** A Node error's own fields that name paths. */
interface PathNamingError {
  message?: unknown;
  path?: unknown;
  dest?: unknown;
}

/**
 * Writes `name` into `error`'s `field` and message where Node wrote it as UTF-8 (U+FFFD for each byte that is not).
 * Node's message names the path first and the dest last: `{syscall} '{path}' -> '{dest}'`.
 */
function nameInError(error: PathNamingError, field: 'path' | 'dest', name: string): void {
  if (!hasLoneSurrogate(name)) return;
  const lossy = bytesOfName(name)?.toString('utf8');
  if (lossy === undefined || error[field] !== lossy) return;
  error[field] = name;
  if (typeof error.message !== 'string') return;
  const quoted = `'${lossy}'`;
  const at = field === 'path' ? error.message.indexOf(quoted) : error.message.lastIndexOf(quoted);
  if (at >= 0)
    error.message = `${error.message.slice(0, at)}'${name}'${error.message.slice(at + quoted.length)}`;
}

/**
 * `error`, which Node's `fs` rejected a call with that was given `path` (and `dest`) as {@link nodePath} makes them,
 * naming each as itself: Node writes a path given as bytes into its message (`ELOOP: ..., open '{path}'`), `path` and
 * `dest` as UTF-8, each byte that is not as U+FFFD, so two files would read alike there and the name shown would lead
 * to neither.
 */
export function errorNamingPaths(error: unknown, path: string, dest?: string): unknown {
  if (typeof error !== 'object' || error === null) return error;
  nameInError(error, 'path', path);
  if (dest !== undefined) nameInError(error, 'dest', dest);
  return error;
}

/**
 * Whether a name or path Node gave as a string may have lost bytes: it holds U+FFFD, as every byte Node could not
 * decode became. Read it again as bytes then (a real U+FFFD stays one).
 */
export function mayHaveLostBytes(text: string): boolean {
  return text.includes('\uFFFD');
}

/**
 * `text` as a reader of UTF-8 shows it, each lone surrogate as U+FFFD: for the text of a file's lines that came in
 * one stream with names (ripgrep's output), where only the names keep their bytes.
 */
export function wellFormed(text: string): string {
  return (text as WellFormedString).toWellFormed();
}
