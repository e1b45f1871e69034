import { hasLoneSurrogate, isByteName } from '../fs/byte-names.js';
import { SHOWN_PATH_MAX_CHARS } from '../text/escape-for-display.js';
import { pathApiFor } from './platform-path.js';

/**
 * The quoted form (`"..."`, JSON's escapes inside) that starts at `start` of `input` and ends the input or is followed
 * by a `/`: the name it stands for, and where it ends; `undefined` when there is none.
 */
function quotedFormAt(input: string, start: number): { name: string; end: number } | undefined {
  let at = start + 1;
  while (at < input.length && input[at] !== '"') at += input[at] === '\\' ? 2 : 1;
  const end = at + 1;
  if (end > input.length || (end < input.length && input[end] !== '/')) return undefined;
  try {
    return { name: JSON.parse(input.slice(start, end)) as string, end };
  } catch {
    return undefined;
  }
}

/**
 * A path argument read back from the form names are shown in (`escapeForDisplay`, docs/paths.md#how-paths-are-shown):
 * a part in that quoted form that starts the path or follows a `/`, and ends the path or is followed by a `/`, stands
 * for the text it escapes: the whole path (`"src/a\tb.py"`), a name joined to its directory as a listing shows it
 * (`src/"a\tb.py"`), or a path shown quoted whole with a name joined to it (`"a, b/c"/f.txt`). Anything else is taken
 * as it is. Every form a name is shown in reads back as that name and no other, since the display quotes every name
 * that starts a component with `"`.
 */
export function readShownPath(input: string): string {
  return readShownParts(input, (name) => name);
}

/**
 * `input` with each part in the quoted form that starts it or follows a `/`, and ends it or is followed by a `/`,
 * replaced by `written(name)`, `name` being the text the part shows; the rest as it is (see {@link readShownPath}).
 */
export function readShownParts(input: string, written: (name: string) => string): string {
  if (!input.includes('"')) return input;
  let read = '';
  let at = 0;
  for (;;) {
    const quoted = input[at] === '"' ? quotedFormAt(input, at) : undefined;
    const slash = input.indexOf('/', at);
    const end = quoted?.end ?? (slash < 0 ? input.length : slash);
    read += quoted ? written(quoted.name) : input.slice(at, end);
    if (end >= input.length) return read;
    read += '/';
    at = end + 1;
  }
}

/** Why a raw path string was refused before any file-system access. */
export type InputProblem = 'empty' | 'invalid';

/**
 * docs/paths.md items 1–2, decided on the string alone: empty, NUL byte, not well-formed Unicode, UNC/device prefix, or
 * longer than any system takes ({@link SHOWN_PATH_MAX_CHARS}: such a path is the one a message shows cut).
 * A lone surrogate names no file, unless it is a byte escape of a name that is not UTF-8 written as a listing shows it
 * (`inv\udcff.txt`, core's `nameFromBytes`) and the backend carries such names (`byteNames`): Node would write any
 * other as U+FFFD, so the file reached would not be the one named.
 * Any two leading separators (`\\`, `//`, `\/`, `/\`) count as UNC on every platform: on Windows they reach a server
 * (sending credentials), and refusing the rare POSIX spelling `//x` costs nothing.
 */
export function checkPathInput(input: string, byteNames = false): InputProblem | undefined {
  if (input.length === 0) return 'empty';
  if (input.length > SHOWN_PATH_MAX_CHARS || input.includes('\0')) return 'invalid';
  if (hasLoneSurrogate(input) && !(byteNames && isByteName(input))) return 'invalid';
  if (/^[\\/]{2}/.test(input)) return 'invalid';
  return undefined;
}

/** Where `~` points and which platform's path rules apply. */
export interface ExpandOptions {
  homeDir: string;
  platform: NodeJS.Platform;
}

/**
 * docs/paths.md items 3–4: `~` and `~/...` (also `~\...` on Windows) expand to the home directory; `~user` is left alone
 * (it is an ordinary relative name). On Windows only, MSYS `/c/...` and Cygwin `/cygdrive/c/...` become `C:\...`.
 */
export function expandPathInput(input: string, options: ExpandOptions): string {
  const pathApi = pathApiFor(options.platform);
  const isWindows = options.platform === 'win32';
  if (input === '~') return options.homeDir;
  if (input.startsWith('~/') || (isWindows && input.startsWith('~\\'))) {
    return pathApi.join(options.homeDir, input.slice(2));
  }
  if (isWindows) {
    const drive = /^\/(?:cygdrive\/)?([a-zA-Z])(?:\/(.*))?$/s.exec(input);
    if (drive) {
      const letter = drive[1]!.toUpperCase();
      const rest = (drive[2] ?? '').replace(/\//g, '\\');
      return `${letter}:\\${rest}`;
    }
  }
  return input;
}

/**
 * A Windows drive-relative path (`C:foo`) would resolve against that drive's own current directory, which is
 * process state rather than the runtime's `workDir`; we refuse it as invalid instead of guessing.
 */
export function isDriveRelative(expanded: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' && /^[a-zA-Z]:(?![\\/])/.test(expanded);
}

/**
 * Whether a path ends in a separator (`/`, and `\\` on Windows), so it names a directory: a file tool takes it as the
 * directory that is there, and refuses it when none is, rather than write or read a file under a name the model did
 * not give (docs/paths.md).
 */
export function endsWithSeparator(input: string, platform: NodeJS.Platform): boolean {
  return input.endsWith('/') || (platform === 'win32' && input.endsWith('\\'));
}
