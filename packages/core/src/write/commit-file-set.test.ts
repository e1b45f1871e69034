import { describe, expect, it } from 'vitest';
import { memoryFileSystem, type MemoryEntry } from '../fs/memory/memory-file-system.js';
import type { FileSystem } from '../fs/file-system.js';
import { forwardingFileSystem } from '@kimi-tools/test-kit';
import { readFileUpTo } from '../fs/regular-file.js';
import { writeFileAtomic } from './atomic-write.js';
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

function contentOf(entry: MemoryEntry | undefined): string | undefined {
  return entry?.type === 'file' ? entry.content.toString() : undefined;
}

/** The memory backend, with `create` counted (how many are under way at once) and failing for one path. */
function countingCreates(memory: FileSystem, failFor?: string) {
  const seen = { inFlight: 0, most: 0 };
  const fs: FileSystem = new Proxy(memory, {
    get(target, property) {
      if (property === 'create') {
        return async (path: string, mode?: number) => {
          seen.inFlight += 1;
          seen.most = Math.max(seen.most, seen.inFlight);
          try {
            await new Promise((resolve) => setTimeout(resolve, 2));
            if (failFor !== undefined && path.startsWith(`${failFor}.`)) {
              throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
            }
            return await target.create(path, mode);
          } finally {
            seen.inFlight -= 1;
          }
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as FileSystem;
  return { fs, seen };
}

describe('commitFileSet: many files', () => {
  const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/w/f${i}.txt`, `old ${i}\n`]));
  const steps = Object.keys(files).map((path, i) => ({
    kind: 'write' as const,
    path,
    bytes: Buffer.from(`new ${i}\n`),
    mode: 0o644,
    previous: { kind: 'file' as const, bytes: Buffer.from(`old ${i}\n`), mode: 0o644 },
  }));

  it('writes the temp files several at a time, then renames them all into place', async () => {
    const memory = memoryFileSystem({ files });
    const { fs, seen } = countingCreates(memory);
    await commitFileSet(fs, steps);
    expect(seen.most).toBeGreaterThan(1);
    expect((await memory.readdir('/w')).length).toBe(40);
    const snapshot = memory.snapshot();
    for (const [i, step] of steps.entries()) expect(contentOf(snapshot[step.path])).toBe(`new ${i}\n`);
  });

  it('leaves every file as it was, and no temp file, when one temp write fails among many under way', async () => {
    const memory = memoryFileSystem({ files });
    const { fs } = countingCreates(memory, '/w/.f17.txt');
    const failed = await commitFileSet(fs, steps).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(CommitFailedError);
    expect((failed as CommitFailedError).unrestored).toEqual([]);
    expect((await memory.readdir('/w')).map((entry) => entry.name).sort()).toEqual(
      Object.keys(files)
        .map((path) => path.slice(3))
        .sort(),
    );
    const snapshot = memory.snapshot();
    for (const [path, content] of Object.entries(files)) expect(contentOf(snapshot[path])).toBe(content);
  });
});

// docs/file-systems.md: `syncDirectory` never fails. A backend whose does must not make a written change read as
// failed: a caller would report nothing changed (ApplyPatch), or undo what it had just written.
describe('a backend whose syncDirectory rejects, against its contract', () => {
  const rejectingSync = (files: Record<string, string>): FileSystem => ({
    ...forwardingFileSystem(memoryFileSystem({ files })),
    syncDirectory: () => Promise.reject(new Error('EIO: i/o error, fsync')),
  });
  const text = async (fs: FileSystem, file: string) => (await readFileUpTo(fs, file, 1024)).toString();

  it('commitFileSet resolves once every rename is made, the new contents in place', async () => {
    const fs = rejectingSync({ '/w/a.txt': 'a\n', '/w/b.txt': 'b\n' });
    await commitFileSet(fs, [
      {
        kind: 'write',
        path: '/w/a.txt',
        bytes: Buffer.from('A\n'),
        mode: 0o644,
        previous: { kind: 'file', bytes: Buffer.from('a\n'), mode: 0o644 },
      },
      {
        kind: 'write',
        path: '/w/c.txt',
        bytes: Buffer.from('C\n'),
        mode: 0o644,
        previous: { kind: 'missing' },
      },
    ]);
    expect([await text(fs, '/w/a.txt'), await text(fs, '/w/b.txt'), await text(fs, '/w/c.txt')]).toEqual([
      'A\n',
      'b\n',
      'C\n',
    ]);
  });

  it('writeFileAtomic resolves with the new content in place', async () => {
    const fs = rejectingSync({ '/w/a.txt': 'a\n' });
    await writeFileAtomic(fs, '/w/a.txt', Buffer.from('A\n'));
    expect(await text(fs, '/w/a.txt')).toBe('A\n');
  });
});
