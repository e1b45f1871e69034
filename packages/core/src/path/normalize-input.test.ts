import { describe, expect, it } from 'vitest';
import {
  checkPathInput,
  endsWithSeparator,
  expandPathInput,
  isDriveRelative,
  readShownPath,
} from './normalize-input.js';

describe('checkPathInput', () => {
  it('flags the empty string', () => {
    expect(checkPathInput('')).toBe('empty');
  });

  it('flags NUL bytes anywhere', () => {
    expect(checkPathInput('a\0b.txt')).toBe('invalid');
    expect(checkPathInput('/tmp/x\0')).toBe('invalid');
  });

  it('flags strings that are not well-formed Unicode (a lone surrogate has no file name)', () => {
    for (const bad of ['d\ud800/n.txt', 'a\udfff', '\udc00\ud800', 'x\ud83d']) {
      expect(checkPathInput(bad)).toBe('invalid');
    }
    expect(checkPathInput('emoji \ud83d\ude00.txt')).toBeUndefined();
  });

  it('takes the byte escapes of a name that is not UTF-8 where the backend carries such names, and only as shown', () => {
    expect(checkPathInput('inv\udcff.txt', true)).toBeUndefined();
    expect(checkPathInput('inv\udcff.txt')).toBe('invalid');
    // The bytes of `é`, which is shown `é`, and lone surrogates that escape no byte.
    for (const bad of ['\udcc3\udca9', 'a\udc7f', 'd\ud800/n.txt']) {
      expect(checkPathInput(bad, true)).toBe('invalid');
    }
  });

  it('flags a path longer than any system takes, and takes one as long as Windows takes', () => {
    expect(checkPathInput('a'.repeat(32_768))).toBe('invalid');
    expect(checkPathInput('a'.repeat(32_767))).toBeUndefined();
  });

  it('flags UNC and device prefixes in either slash style', () => {
    for (const unc of [
      '\\\\server\\share',
      '//server/share',
      '\\/server/share',
      '/\\server',
      '\\\\?\\C:\\x',
    ]) {
      expect(checkPathInput(unc)).toBe('invalid');
    }
  });

  it('accepts ordinary paths, including a single leading slash and spaces', () => {
    for (const ok of ['/etc/hosts', 'src/a b.ts', '.', '~', 'C:\\x', '\\rooted', 'a//b']) {
      expect(checkPathInput(ok)).toBeUndefined();
    }
  });
});

describe('expandPathInput', () => {
  const posix = { homeDir: '/home/me', platform: 'linux' as const };
  const windows = { homeDir: 'C:\\Users\\me', platform: 'win32' as const };

  it('expands ~ and ~/ to the home directory', () => {
    expect(expandPathInput('~', posix)).toBe('/home/me');
    expect(expandPathInput('~/', posix)).toBe('/home/me');
    expect(expandPathInput('~/notes/a.md', posix)).toBe('/home/me/notes/a.md');
  });

  it('leaves ~user and ~ in the middle alone', () => {
    expect(expandPathInput('~bob/a.txt', posix)).toBe('~bob/a.txt');
    expect(expandPathInput('a/~/b', posix)).toBe('a/~/b');
  });

  it('does not treat ~\\ as home on POSIX (a backslash is a file-name character there)', () => {
    expect(expandPathInput('~\\a', posix)).toBe('~\\a');
  });

  it('expands ~ and ~\\ on Windows with Windows separators', () => {
    expect(expandPathInput('~\\a.txt', windows)).toBe('C:\\Users\\me\\a.txt');
    expect(expandPathInput('~/a/b.txt', windows)).toBe('C:\\Users\\me\\a\\b.txt');
  });

  it('converts MSYS and Cygwin drive paths on Windows only', () => {
    expect(expandPathInput('/c/Users/me/a.txt', windows)).toBe('C:\\Users\\me\\a.txt');
    expect(expandPathInput('/cygdrive/d/work/x', windows)).toBe('D:\\work\\x');
    expect(expandPathInput('/c', windows)).toBe('C:\\');
    expect(expandPathInput('/cygdrive/e/', windows)).toBe('E:\\');
    expect(expandPathInput('/c/Users/me/a.txt', posix)).toBe('/c/Users/me/a.txt');
    expect(expandPathInput('/cygdrive/d/work', posix)).toBe('/cygdrive/d/work');
  });

  it('does not convert longer first segments on Windows', () => {
    expect(expandPathInput('/cc/x', windows)).toBe('/cc/x');
    expect(expandPathInput('/cygdrive/dd/x', windows)).toBe('/cygdrive/dd/x');
  });
});

describe('isDriveRelative', () => {
  it('is true only for Windows drive-relative paths', () => {
    expect(isDriveRelative('C:foo', 'win32')).toBe(true);
    expect(isDriveRelative('C:', 'win32')).toBe(true);
    expect(isDriveRelative('C:\\foo', 'win32')).toBe(false);
    expect(isDriveRelative('C:/foo', 'win32')).toBe(false);
    expect(isDriveRelative('C:foo', 'linux')).toBe(false);
  });
});

describe('endsWithSeparator', () => {
  it('sees a trailing `/` everywhere and a trailing `\\` on Windows only', () => {
    expect(endsWithSeparator('newdir/', 'linux')).toBe(true);
    expect(endsWithSeparator('newdir/', 'win32')).toBe(true);
    expect(endsWithSeparator('newdir\\', 'win32')).toBe(true);
    // On POSIX a backslash is an ordinary character of a file name.
    expect(endsWithSeparator('newdir\\', 'linux')).toBe(false);
    expect(endsWithSeparator('a/b.txt', 'linux')).toBe(false);
  });
});

describe('readShownPath', () => {
  it('reads a whole quoted path back as the name it shows', () => {
    expect(readShownPath('"a\\tb.py"')).toBe('a\tb.py');
    expect(readShownPath('"src/n\\nl.py"')).toBe('src/n\nl.py');
    expect(readShownPath('"a\\u001b[2K\\rx"')).toBe('a\u001b[2K\rx');
    expect(readShownPath('"\\"x"')).toBe('"x');
    expect(readShownPath('"a\\\\tb.py"')).toBe('a\\tb.py');
  });

  it('reads a quoted component joined to a plain directory, as a listing shows it', () => {
    expect(readShownPath('src/"a\\tb.py"')).toBe('src/a\tb.py');
    expect(readShownPath('/w/"d\\ti"/"x\\ny"')).toBe('/w/d\ti/x\ny');
  });

  // `Created directories: "a, b", "a, b/c: d".` then `"a, b/c: d"/f.txt` named a directory `"a, b` and a file `c: d"`.
  it('reads a path shown quoted whole with a name joined to it', () => {
    expect(readShownPath('"a, b/c: d"/f.txt')).toBe('a, b/c: d/f.txt');
    expect(readShownPath('"a\\tb/c"/"x\\ny"/z')).toBe('a\tb/c/x\ny/z');
    expect(readShownPath('/w/"a\\tb/c"/')).toBe('/w/a\tb/c/');
  });

  it('takes every other string as it is', () => {
    for (const plain of [
      'a\\tb.py',
      'src/main.ts',
      'say "hi".txt',
      'x"',
      '"',
      '"unterminated',
      '"a\\qb"',
      ' "a" ',
      '"a" "b"',
      'a\tb.py',
      '"a"b/c',
      'a/"b',
      '"a/b"c',
    ])
      expect(readShownPath(plain)).toBe(plain);
  });

  it('reads `""` as the empty path and an escaped NUL as a NUL, which the input checks then refuse', () => {
    expect(readShownPath('""')).toBe('');
    expect(checkPathInput(readShownPath('"a\\u0000b"'))).toBe('invalid');
  });
});
