import { promises as nodeFs } from 'node:fs';
import { beforeEach, expect, it } from 'vitest';
import { createCheckpoints, ListCheckpoints, Rewind, type Checkpoints } from './index.js';
import { bytesAt, describeOnEachBackend, put, snapshot } from './__fixtures__/backends.js';

// docs/paths.md#names-that-are-not-utf-8: `inv\xff.txt`, `inv\xfe.txt` and a real `inv\uFFFD.txt` are three files,
// carried as `inv\udcff.txt`, `inv\udcfe.txt` and `inv\ufffd.txt`. A checkpoint records each under its own name, and
// a rewind puts back those bytes under those names, never at the U+FFFD twin.

/** The bytes of a path as the local disk holds them: each byte escape its byte, the rest UTF-8. */
function diskPath(path: string): Buffer {
  const parts: Buffer[] = [];
  for (const character of path) {
    const unit = character.charCodeAt(0);
    parts.push(unit >= 0xdc80 && unit <= 0xdcff ? Buffer.of(unit - 0xdc00) : Buffer.from(character));
  }
  return Buffer.concat(parts);
}

describeOnEachBackend(
  'names that are not UTF-8 in checkpoints on the %s backend',
  ({ backend, space, at }) => {
    let checkpoints: Checkpoints;

    beforeEach(async () => {
      checkpoints = createCheckpoints(space.runtime, { dir: space.storeDir });
    });

    /** Three files that Node alone would list alike, and a directory of each kind. */
    async function seed(): Promise<void> {
      const { fs } = space;
      if (backend === 'local') {
        // Made as a program would, by their bytes, not through the conversion under test.
        await nodeFs.writeFile(
          Buffer.concat([diskPath(`${space.root}/`), Buffer.from('inv\xff.txt', 'latin1')]),
          'ff\n',
        );
        await nodeFs.writeFile(
          Buffer.concat([diskPath(`${space.root}/`), Buffer.from('inv\xfe.txt', 'latin1')]),
          'fe\n',
        );
        await nodeFs.mkdir(Buffer.concat([diskPath(`${space.root}/`), Buffer.from('dir\xff', 'latin1')]));
        await nodeFs.writeFile(
          Buffer.concat([diskPath(`${space.root}/`), Buffer.from('dir\xff/in.txt', 'latin1')]),
          'in ff\n',
        );
      } else {
        await put(fs, at('inv\udcff.txt'), 'ff\n');
        await put(fs, at('inv\udcfe.txt'), 'fe\n');
        await put(fs, at('dir\udcff/in.txt'), 'in ff\n');
      }
      await put(fs, at('inv\ufffd.txt'), 'replacement\n');
      await put(fs, at('dir\ufffd/in.txt'), 'in replacement\n');
      await fs.symlink('inv\udcff.txt', at('link'));
    }

    it('records each name apart, and a checkpoint with nothing changed finds nothing changed', async () => {
      await seed();
      const first = await checkpoints.create('turn 1');
      expect(first.files).toEqual([
        { path: 'dir\udcff/in.txt', change: 'created' },
        { path: 'dir\ufffd/in.txt', change: 'created' },
        { path: 'inv\udcfe.txt', change: 'created' },
        { path: 'inv\udcff.txt', change: 'created' },
        { path: 'inv\ufffd.txt', change: 'created' },
        { path: 'link', change: 'created' },
      ]);
      // The second scan starts from the first one's index: its names must come back as they went in.
      expect((await checkpoints.create('turn 2')).files).toEqual([]);
      expect((await checkpoints.create('turn 3')).files).toEqual([]);
      expect(await checkpoints.rewind('1')).toEqual({ kind: 'unchanged', leftAlone: [] });
    });

    it('lists the names in their quoted forms, each apart', async () => {
      await seed();
      const first = await checkpoints.create('turn 1');
      const result = await new ListCheckpoints(space.runtime).call({});
      expect(result.output).toBe(
        `Checkpoint 1, ${first.time}, "turn 1": 6 files changed: "dir\\udcff/in.txt" (created), ` +
          'dir\ufffd/in.txt (created), "inv\\udcfe.txt" (created), "inv\\udcff.txt" (created), inv\ufffd.txt (created), link (created)\n',
      );
    });

    it('rewinds a modified, a deleted and a created such file by its bytes, never touching the U+FFFD twin', async () => {
      await seed();
      await checkpoints.create('turn 1');
      const seeded = await snapshot(space.fs, space.root);
      const { fs } = space;
      await put(fs, at('inv\udcff.txt'), 'ff changed\n');
      await fs.unlink(at('inv\udcfe.txt'));
      await put(fs, at('new\udcfd.txt'), 'new fd\n');
      await put(fs, at('dir\udcfd/made.txt'), 'in a new directory\n');
      await fs.unlink(at('dir\udcff/in.txt'));
      await fs.rmdir(at('dir\udcff'));
      await fs.unlink(at('link'));
      await fs.symlink('inv\udcfe.txt', at('link'));
      const second = await checkpoints.create('turn 2');
      expect(second.files).toEqual([
        { path: 'dir\udcfd/made.txt', change: 'created' },
        { path: 'dir\udcff/in.txt', change: 'deleted' },
        { path: 'inv\udcfe.txt', change: 'deleted' },
        { path: 'inv\udcff.txt', change: 'modified' },
        { path: 'link', change: 'modified' },
        { path: 'new\udcfd.txt', change: 'created' },
      ]);
      const twin = await fs.lstat(at('inv\ufffd.txt'));

      const result = await new Rewind(space.runtime).call({ checkpoint: '1' });
      expect(result.isError).toBe(false);
      expect(result.message).toBe(
        'Rewound to checkpoint 1: 6 files changed.\n' +
          '"dir\\udcfd/made.txt": created since the checkpoint, removed\n' +
          '"dir\\udcff/in.txt": deleted since the checkpoint, recreated\n' +
          '"inv\\udcfe.txt": deleted since the checkpoint, recreated\n' +
          '"inv\\udcff.txt": modified since the checkpoint, restored\n' +
          'link: modified since the checkpoint, restored\n' +
          '"new\\udcfd.txt": created since the checkpoint, removed\n' +
          'Checkpoint 2 holds the files as they were before this rewind: rewind to it to undo this one.',
      );
      expect(await snapshot(space.fs, space.root)).toEqual(seeded);
      expect((await bytesAt(fs, at('inv\ufffd.txt'))).toString()).toBe('replacement\n');
      const after = await fs.lstat(at('inv\ufffd.txt'));
      expect([after.ino, after.mtimeMs]).toEqual([twin.ino, twin.mtimeMs]);
      if (backend === 'local') {
        // On the disk, by their bytes: the escapes were written as the bytes they stand for.
        const names = await nodeFs.readdir(diskPath(space.root), { encoding: 'buffer' });
        expect(names.map((name) => name.toString('latin1')).sort()).toEqual(
          ['dir\xff', 'dir\xef\xbf\xbd', 'inv\xfe.txt', 'inv\xff.txt', 'inv\xef\xbf\xbd.txt', 'link'].sort(),
        );
        expect(
          await nodeFs.readFile(
            Buffer.concat([diskPath(`${space.root}/`), Buffer.from('inv\xff.txt', 'latin1')]),
            'utf8',
          ),
        ).toBe('ff\n');
        expect((await nodeFs.readlink(diskPath(`${space.root}/link`), 'buffer')).toString('latin1')).toBe(
          'inv\xff.txt',
        );
      }

      // And back to turn 2, through the index the rewind left.
      await checkpoints.rewind('2');
      expect((await bytesAt(fs, at('new\udcfd.txt'))).toString()).toBe('new fd\n');
      expect(await fs.lstat(at('inv\udcfe.txt')).catch((error: NodeJS.ErrnoException) => error.code)).toBe(
        'ENOENT',
      );
    });

    it('rewinds only the name given in its quoted form, not its U+FFFD twin', async () => {
      await seed();
      await checkpoints.create('turn 1');
      const { fs } = space;
      await put(fs, at('inv\udcff.txt'), 'ff changed\n');
      await put(fs, at('inv\ufffd.txt'), 'replacement changed\n');
      await checkpoints.create('turn 2');
      const result = await new Rewind(space.runtime).call({ checkpoint: '1', paths: ['"inv\\udcff.txt"'] });
      expect(result.message).toMatch(
        /^Rewound to checkpoint 1: 1 file changed\.\n"inv\\udcff\.txt": modified since/,
      );
      expect((await bytesAt(fs, at('inv\udcff.txt'))).toString()).toBe('ff\n');
      expect((await bytesAt(fs, at('inv\ufffd.txt'))).toString()).toBe('replacement changed\n');
    });
  },
);
