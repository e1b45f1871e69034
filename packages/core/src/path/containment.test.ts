import { describe, expect, it } from 'vitest';
import { isWithinDirectory } from './containment.js';

describe('isWithinDirectory', () => {
  it('treats a directory as inside itself, trailing slash or not', () => {
    expect(isWithinDirectory('/a/project', '/a/project', 'linux')).toBe(true);
    expect(isWithinDirectory('/a/project/', '/a/project', 'linux')).toBe(true);
    expect(isWithinDirectory('/a/project', '/a/project/', 'linux')).toBe(true);
  });

  it('accepts descendants', () => {
    expect(isWithinDirectory('/a/project/src/x.ts', '/a/project', 'linux')).toBe(true);
    expect(isWithinDirectory('/a/project/..foo', '/a/project', 'linux')).toBe(true);
  });

  it('rejects the prefix attack and parents', () => {
    expect(isWithinDirectory('/a/project-evil', '/a/project', 'linux')).toBe(false);
    expect(isWithinDirectory('/a/project-evil/x', '/a/project', 'linux')).toBe(false);
    expect(isWithinDirectory('/a', '/a/project', 'linux')).toBe(false);
    expect(isWithinDirectory('/a/project/../other', '/a/project', 'linux')).toBe(false);
  });

  it('works for the root directory', () => {
    expect(isWithinDirectory('/anything/x', '/', 'linux')).toBe(true);
  });

  it('is case-sensitive on POSIX and case-insensitive on Windows', () => {
    expect(isWithinDirectory('/A/Project/x', '/a/project', 'linux')).toBe(false);
    expect(isWithinDirectory('c:\\work\\x', 'C:\\Work', 'win32')).toBe(true);
    expect(isWithinDirectory('C:\\Work-evil\\x', 'C:\\Work', 'win32')).toBe(false);
    expect(isWithinDirectory('D:\\Work\\x', 'C:\\Work', 'win32')).toBe(false);
  });
});
