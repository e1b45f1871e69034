import type { OpenFile } from '@kimi-tools/core/fs';
import { expect } from 'vitest';
import {
  expectCode,
  S_IFIFO,
  S_IFMT,
  typeOf,
  writeFully,
  type CaseContext,
  type ConformanceCase,
} from './conformance-case.js';

/** Runs `body` on `file`, closing it whatever happens. */
async function using<T>(file: OpenFile, body: (file: OpenFile) => Promise<T>): Promise<T> {
  try {
    return await body(file);
  } finally {
    await file.close();
  }
}

/** What one `read` call gives: the bytes read, as text. */
async function readAt(file: OpenFile, length: number, position: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString('latin1');
}

async function tenDigits(context: CaseContext): Promise<string> {
  return context.write('digits', '0123456789');
}

/** Opening, creating, ranged reads and writes, truncation. */
export const openCases: readonly ConformanceCase[] = [
  {
    name: 'read at a position gives those bytes, a short read at the end, then 0 bytes at and past the end',
    async run(context) {
      const file = await tenDigits(context);
      await using(await context.fs.open(file, 'read'), async (handle) => {
        expect(await readAt(handle, 4, 3)).toBe('3456');
        expect(await readAt(handle, 4, 0)).toBe('0123');
        expect(await readAt(handle, 4, 8)).toBe('89');
        expect(await readAt(handle, 4, 10)).toBe('');
        expect(await readAt(handle, 4, 1000)).toBe('');
        const buffer = Buffer.from('......');
        expect((await handle.read(buffer, 2, 3, 5)).bytesRead).toBe(3);
        expect(buffer.toString()).toBe('..567.');
      });
    },
  },
  {
    name: 'a file of 1 MiB of every byte value reads back exactly, chunk by chunk',
    async run(context) {
      const content = Buffer.alloc(1024 * 1024);
      for (let index = 0; index < content.length; index++)
        content[index] = (index * 7 + (index >> 11)) & 0xff;
      const file = await context.write('big.bin', content);
      expect((await context.fs.stat(file)).size).toBe(content.length);
      expect((await context.read(file)).equals(content)).toBe(true);
    },
  },
  {
    name: "open('update') writes at a position without truncating, and a write past the end leaves zeros between",
    async run(context) {
      const file = await tenDigits(context);
      await using(await context.fs.open(file, 'update'), async (handle) => {
        await writeFully(handle, Buffer.from('AB'), 2);
        expect(await readAt(handle, 10, 0)).toBe('01AB456789');
        await writeFully(handle, Buffer.from('Z'), 12);
        expect((await handle.stat()).size).toBe(13);
      });
      expect((await context.read(file)).toString('latin1')).toBe('01AB456789\0\0Z');
    },
  },
  {
    name: 'write takes the bytes from an offset of its buffer',
    async run(context) {
      const file = await tenDigits(context);
      await using(await context.fs.open(file, 'update'), async (handle) => {
        const { bytesWritten } = await handle.write(Buffer.from('xyzXYZ'), 3, 2, 0);
        expect(bytesWritten).toBeGreaterThan(0);
        if (bytesWritten === 1) await writeFully(handle, Buffer.from('Y'), 1);
      });
      expect((await context.read(file)).toString()).toBe('XY23456789');
    },
  },
  {
    name: 'truncate shortens a file, and lengthens it with zeros',
    async run(context) {
      const file = await tenDigits(context);
      await using(await context.fs.open(file, 'update'), async (handle) => {
        await handle.truncate(4);
        expect((await handle.stat()).size).toBe(4);
        await handle.truncate(6);
      });
      expect((await context.read(file)).toString('latin1')).toBe('0123\0\0');
      expect((await context.fs.stat(file)).size).toBe(6);
    },
  },
  {
    name: 'open follows a symbolic link, for reading and for updating',
    async run(context) {
      const { fs } = context;
      const file = await tenDigits(context);
      await fs.symlink('digits', context.at('link'));
      expect((await context.read(context.at('link'))).toString()).toBe('0123456789');
      await using(await fs.open(context.at('link'), 'update'), (handle) =>
        writeFully(handle, Buffer.from('!'), 0),
      );
      expect((await context.read(file)).toString()).toBe('!123456789');
      expect(await fs.readlink(context.at('link'))).toBe('digits');
    },
  },
  {
    name: 'open rejects ENOENT for a missing file or a dangling link, ENOTDIR through a file, EISDIR to update a directory',
    async run(context) {
      const { fs } = context;
      const file = await tenDigits(context);
      await fs.symlink('nowhere', context.at('dangling'));
      await expectCode(fs.open(context.at('missing'), 'read'), 'ENOENT');
      await expectCode(fs.open(context.at('missing'), 'update'), 'ENOENT');
      await expectCode(fs.open(context.at('dangling'), 'read'), 'ENOENT');
      await expectCode(fs.open(`${file}/inside`, 'read'), 'ENOTDIR');
      await expectCode(fs.open(context.root, 'update'), 'EISDIR');
    },
  },
  {
    name: "open('read') of a directory rejects EISDIR, or gives a file whose stat says directory and whose read rejects EISDIR",
    async run(context) {
      const outcome = await context.fs.open(context.root, 'read').then(
        (file) => ({ file }),
        (error: unknown) => ({ error }),
      );
      if ('error' in outcome) {
        expect((outcome.error as { code?: unknown }).code).toBe('EISDIR');
        return;
      }
      await using(outcome.file, async (handle) => {
        expect(typeOf(await handle.stat())).toEqual(['isDirectory']);
        await expectCode(handle.read(Buffer.alloc(4), 0, 4, 0), 'EISDIR');
      });
    },
  },
  {
    name: "open('read') of a FIFO returns at once (never waits for a writer); its stat says FIFO",
    needs: 'fifo',
    async run(context) {
      const fifo = context.at('fifo');
      await context.mkfifo(fifo);
      expect(typeOf(await context.fs.stat(fifo))).toEqual(['isFIFO']);
      expect((await context.fs.stat(fifo)).mode & S_IFMT).toBe(S_IFIFO);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("open('read') of a FIFO waited for a writer")), 10_000);
      });
      try {
        const file = await Promise.race([context.fs.open(fifo, 'read'), waited]);
        await using(file, async (handle) => expect(typeOf(await handle.stat())).toEqual(['isFIFO']));
      } finally {
        clearTimeout(timer);
      }
    },
  },
  {
    name: 'an open file keeps its own content and stats after a rename replaced its path',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'old');
      await using(await fs.open(file, 'read'), async (handle) => {
        const before = await handle.stat();
        await context.write('replacement', 'newer!');
        await fs.rename(context.at('replacement'), file);
        expect((await handle.stat()).size).toBe(3);
        if (fs.capabilities.inodes) expect((await handle.stat()).ino).toBe(before.ino);
        expect(await readAt(handle, 10, 0)).toBe('old');
      });
      expect((await context.read(file)).toString()).toBe('newer!');
    },
  },
  {
    name: 'create makes an empty regular file open for writing and reading back',
    async run(context) {
      const path = context.at('new');
      await using(await context.fs.create(path), async (handle) => {
        expect((await handle.stat()).size).toBe(0);
        expect(typeOf(await handle.stat())).toEqual(['isFile']);
        await writeFully(handle, Buffer.from('abc'), 0);
        expect(await readAt(handle, 10, 0)).toBe('abc');
        await handle.sync();
      });
      expect((await context.read(path)).toString()).toBe('abc');
    },
  },
  {
    name: 'create rejects EEXIST for a file, a directory, a link and a dangling link, whose target it never creates',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file', 'kept');
      await fs.mkdir(context.at('dir'));
      await fs.symlink('file', context.at('link'));
      await fs.symlink('nowhere', context.at('dangling'));
      for (const name of ['file', 'dir', 'link', 'dangling'])
        await expectCode(fs.create(context.at(name)), 'EEXIST');
      await expectCode(fs.lstat(context.at('nowhere')), 'ENOENT');
      expect((await context.read(file)).toString()).toBe('kept');
    },
  },
  {
    name: 'create rejects ENOENT where the parent is missing and ENOTDIR where it is a file',
    async run(context) {
      const file = await context.write('file', 'x');
      await expectCode(context.fs.create(context.at('missing/new')), 'ENOENT');
      await expectCode(context.fs.create(`${file}/new`), 'ENOTDIR');
    },
  },
  {
    name: 'of many creates of one path at once, exactly one succeeds and every other rejects EEXIST',
    async run(context) {
      const path = context.at('contended');
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => context.fs.create(path)));
      const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(created).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'fulfilled') await outcome.value.close();
        else expect((outcome.reason as { code?: unknown }).code).toBe('EEXIST');
      }
    },
  },
  {
    name: 'creates racing with removes of one path (lock files) each succeed or reject EEXIST, nothing else',
    async run(context) {
      const path = context.at('lock');
      const codes = new Set<unknown>();
      // Four holders take the path in turn and give it back at once, as writers take a lock file.
      const holder = async () => {
        for (let round = 0; round < 40; round++) {
          try {
            const file = await context.fs.create(path);
            await file.close();
            await context.fs.unlink(path);
            codes.add('created');
          } catch (error) {
            codes.add((error as { code?: unknown }).code);
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, holder));
      expect([...codes].filter((code) => code !== 'created' && code !== 'EEXIST')).toEqual([]);
      expect(codes.has('created')).toBe(true);
    },
  },
  {
    name: 'create keeps the owner bits of the mode it is given and adds none; the default is rw for the owner, no x',
    async run(context) {
      const { fs } = context;
      // The backend trims the mode as its umask says (an umask never takes the owner's bits).
      for (const mode of [0o600, 0o700, 0o640, 0o755]) {
        const path = context.at(`mode-${mode.toString(8)}`);
        await (await fs.create(path, mode)).close();
        const kept = (await fs.stat(path)).mode & 0o7777;
        expect(kept & 0o700).toBe(mode & 0o700);
        expect(kept & ~mode).toBe(0);
      }
      await (await fs.create(context.at('default'))).close();
      const defaultMode = (await fs.stat(context.at('default'))).mode;
      expect(defaultMode & 0o600).toBe(0o600);
      expect(defaultMode & 0o111).toBe(0);
    },
  },
  {
    name: 'an open file sets its own mode, and sync resolves',
    async run(context) {
      const file = await tenDigits(context);
      await using(await context.fs.open(file, 'update'), async (handle) => {
        await handle.chmod(0o604);
        await handle.sync();
        expect((await handle.stat()).mode & 0o7777).toBe(0o604);
      });
      expect((await context.fs.stat(file)).mode & 0o7777).toBe(0o604);
    },
  },
  {
    name: 'an open file that sets its mode and owner in one call sets both',
    async run(context) {
      const file = await tenDigits(context);
      const { uid, gid } = await context.fs.stat(file);
      await using(await context.fs.open(file, 'update'), async (handle) => {
        if (!handle.setModeAndOwner) return context.skip('the backend has no setModeAndOwner (optional)');
        if (uid === undefined || gid === undefined) return context.skip('the backend reports no owner');
        await handle.setModeAndOwner(0o640, { uid, gid });
        const stats = await handle.stat();
        expect([stats.mode & 0o7777, stats.uid, stats.gid]).toEqual([0o640, uid, gid]);
      });
      expect((await context.fs.stat(file)).mode & 0o7777).toBe(0o640);
    },
  },
];
