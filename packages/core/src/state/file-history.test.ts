import { promises as fs } from 'node:fs';
import path from 'node:path';
import { it, translatedFileSystem } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { FileHistory } from './file-history.js';
import { localFileSystem } from '../fs/local-file-system.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('FileHistory', () => {
  it('lists saved versions and restores the latest by default', async ({ workspace }) => {
    const history = new FileHistory();
    const file = workspace.at('a.txt');
    await history.save(localFileSystem, file, null);
    await fs.writeFile(file, 'one');
    await history.save(localFileSystem, file, bytes('one'));
    await fs.writeFile(file, 'two');

    const entries = history.list();
    expect(entries.map(({ path: p, version, size }) => ({ p, version, size }))).toEqual([
      { p: file, version: 1, size: null },
      { p: file, version: 2, size: 3 },
    ]);
    expect(entries[0]?.time).toBeInstanceOf(Date);

    const restored = await history.restore(file);
    expect(restored.version).toBe(2);
    expect(await fs.readFile(file, 'utf8')).toBe('one');
    // The restore saved what it replaced, so it can be undone too.
    expect(history.list(file).at(-1)).toMatchObject({ version: 3, size: 3 });
    await history.restore(file, 3);
    expect(await fs.readFile(file, 'utf8')).toBe('two');
  });

  it('deletes the file when restoring a version where it did not exist', async ({ workspace }) => {
    const history = new FileHistory();
    const file = workspace.at('new.txt');
    await history.save(localFileSystem, file, null);
    await fs.writeFile(file, 'created');
    await history.restore(file, 1);
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('restores byte for byte, keeping the mode, and copies what it was given', async ({ workspace }) => {
    const history = new FileHistory();
    const file = workspace.at('bin');
    const original = new Uint8Array([0xff, 0xfe, 0x00, 0x0d, 0x0a]);
    await fs.writeFile(file, original);
    await fs.chmod(file, 0o755);
    const given = original.slice();
    await history.save(localFileSystem, file, given);
    given.fill(0);
    await fs.writeFile(file, 'changed');
    await history.restore(file);
    expect(new Uint8Array(await fs.readFile(file))).toEqual(original);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o755);
  });

  it('fails clearly for an unknown path or version', async ({ workspace }) => {
    const history = new FileHistory();
    await expect(history.restore(workspace.at('x'))).rejects.toThrow(
      `File history has no saved version of ${workspace.at('x')}.`,
    );
    await history.save(localFileSystem, workspace.at('x'), null);
    await expect(history.restore(workspace.at('x'), 7)).rejects.toThrow('no saved version 7');
  });

  it('drops the oldest versions beyond its limits', async ({ workspace }) => {
    const history = new FileHistory({ maxVersionsPerFile: 2, maxBytes: 10 });
    const a = workspace.at('a');
    const b = workspace.at('b');
    await history.save(localFileSystem, a, bytes('1111'));
    await history.save(localFileSystem, a, bytes('2222'));
    await history.save(localFileSystem, a, bytes('3333'));
    expect(history.list(a).map((entry) => entry.version)).toEqual([2, 3]);
    await history.save(localFileSystem, b, bytes('bbbb'));
    expect(history.list().map((entry) => `${path.basename(entry.path)}${entry.version}`)).toEqual([
      'a3',
      'b1',
    ]);
    expect(await history.save(localFileSystem, b, bytes('x'.repeat(11)))).toBeUndefined();
  });

  it('keeps versions in files when given a directory', async ({ workspace }) => {
    const store = workspace.at('store');
    const history = new FileHistory({ directory: store, maxVersionsPerFile: 1 });
    const file = workspace.at('a.txt');
    await history.save(localFileSystem, file, bytes('v1'));
    await history.save(localFileSystem, file, bytes('v2'));
    expect(await fs.readdir(store)).toHaveLength(1);
    await fs.writeFile(file, 'now');
    await history.restore(file);
    expect(await fs.readFile(file, 'utf8')).toBe('v2');
    await history.clear();
    expect(history.list()).toEqual([]);
    expect(await fs.readdir(store)).toEqual([]);
  });

  it('restores through the file system of the file it saved', async ({ workspace }) => {
    const history = new FileHistory({ directory: workspace.at('.history') });
    const files = translatedFileSystem(workspace.root, '/virtual');
    const file = await workspace.write('a.txt', 'first');
    await history.save(files, '/virtual/work/a.txt', bytes('first'));
    await fs.writeFile(file, 'second');
    await workspace.symlink('link.txt', 'a.txt');
    const restored = await history.restore('/virtual/work/link.txt');
    expect(restored).toMatchObject({ path: '/virtual/work/a.txt', version: 1, size: 5 });
    expect(await fs.readFile(file, 'utf8')).toBe('first');
    expect(files.operations).toContain('realpath /virtual/work/link.txt');
    expect(history.list('/virtual/work/a.txt').map((entry) => entry.size)).toEqual([5, 6]);
  });

  it('finds a file given through a symlink', async ({ workspace }) => {
    const history = new FileHistory();
    const file = await workspace.write('real.txt', 'old');
    const realFile = await fs.realpath(file);
    await history.save(localFileSystem, realFile, bytes('old'));
    await fs.writeFile(file, 'new');
    await workspace.symlink('link.txt', file);
    await history.restore(workspace.at('link.txt'));
    expect(await fs.readFile(file, 'utf8')).toBe('old');
  });
});

describe('FileHistory.saveFromHandle', () => {
  it('copies a file into the directory from its descriptor, and restores it', async ({ workspace }) => {
    const history = new FileHistory({ directory: workspace.outside('history') });
    const file = await workspace.write('big.txt', 'x'.repeat(10_000) + 'end');
    const handle = await localFileSystem.open(file, 'read');
    try {
      expect(await history.saveFromHandle(localFileSystem, file, handle, 10_003)).toMatchObject({
        version: 1,
        size: 10_003,
      });
    } finally {
      await handle.close();
    }
    await fs.writeFile(file, 'changed');
    await history.restore(file);
    expect(await fs.readFile(file, 'utf8')).toBe('x'.repeat(10_000) + 'end');
  });

  it('restores a spilled version by copying it, even when saving the current content evicts it', async ({
    workspace,
  }) => {
    const history = new FileHistory({ directory: workspace.outside('history'), maxVersionsPerFile: 1 });
    const file = await workspace.write('big.txt', 'y'.repeat(20_000) + 'end');
    const handle = await localFileSystem.open(file, 'read');
    try {
      await history.saveFromHandle(localFileSystem, file, handle, 20_003);
    } finally {
      await handle.close();
    }
    await fs.writeFile(file, 'changed');
    expect(await history.restore(file)).toMatchObject({ version: 1, size: 20_003 });
    expect(await fs.readFile(file, 'utf8')).toBe('y'.repeat(20_000) + 'end');
    expect(history.list(file)).toMatchObject([{ version: 2, size: 7 }]);
    expect(await fs.readdir(workspace.outside('history'))).toHaveLength(1);
  });

  it('keeps it in memory without a directory, and not at all over maxBytes', async ({ workspace }) => {
    const history = new FileHistory({ maxBytes: 8 });
    const file = await workspace.write('a.txt', 'abc');
    const handle = await localFileSystem.open(file, 'read');
    try {
      expect(await history.saveFromHandle(localFileSystem, file, handle, 3)).toMatchObject({ size: 3 });
      expect(await history.saveFromHandle(localFileSystem, file, handle, 9)).toBeUndefined();
    } finally {
      await handle.close();
    }
    await fs.writeFile(file, 'other');
    await history.restore(file);
    expect(await fs.readFile(file, 'utf8')).toBe('abc');
    expect(history.list(file)).toHaveLength(2);
  });
});
