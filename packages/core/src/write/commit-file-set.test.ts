import { describe, expect, it } from 'vitest';
import { memoryFileSystem } from '../fs/memory/memory-file-system.js';
import type { FileSystem } from '../fs/file-system.js';
import { commitFileSet, CommitFailedError } from './commit-file-set.js';

describe('commitFileSet: symbolic links', () => {
  it('puts a link in place of a file and of another link, holding its target as given', async () => {
    const fs = memoryFileSystem({ files: { '/w/a.txt': 'a\n', '/w/b.txt': 'b\n' } });
    await fs.symlink('b.txt', '/w/link');
    await commitFileSet(fs, [
      {
        kind: 'symlink',
        path: '/w/a.txt',
        target: '../elsewhere',
        previous: { kind: 'file', bytes: Buffer.from('a\n'), mode: 0o644 },
      },
      { kind: 'symlink', path: '/w/link', target: 'a.txt', previous: { kind: 'symlink', target: 'b.txt' } },
      { kind: 'symlink', path: '/w/new', target: 'b.txt', previous: { kind: 'missing' } },
    ]);
    expect(await fs.readlink('/w/a.txt')).toBe('../elsewhere');
    expect(await fs.readlink('/w/link')).toBe('a.txt');
    expect(await fs.readlink('/w/new')).toBe('b.txt');
    expect((await fs.readdir('/w')).map((entry) => entry.name).sort()).toEqual([
      'a.txt',
      'b.txt',
      'link',
      'new',
    ]);
  });

  it('undoes a link it put when a later step fails, and leaves no temp link', async () => {
    const memory = memoryFileSystem({ files: { '/w/a.txt': 'a\n' } });
    await memory.symlink('a.txt', '/w/link');
    // The removal of a missing file fails after the link was renamed into place.
    const fs: FileSystem = memory;
    const failed = await commitFileSet(fs, [
      { kind: 'symlink', path: '/w/link', target: 'other', previous: { kind: 'symlink', target: 'a.txt' } },
      { kind: 'remove', path: '/w/missing.txt', previous: { kind: 'missing' } },
    ]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect(await fs.readlink('/w/link')).toBe('a.txt');
    expect((await fs.readdir('/w')).map((entry) => entry.name).sort()).toEqual(['a.txt', 'link']);
  });
});
