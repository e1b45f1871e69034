import { promises as fs } from 'node:fs';
import { describe, expect } from 'vitest';
import { translatedFileSystem } from './translated-file-system.js';
import { translatedRuntime } from './translated-runtime.js';
import { it } from './workspace-test.js';

describe('translatedFileSystem', () => {
  it('shows the local directory at the virtual root, both ways, and records what it is asked', async ({
    workspace,
  }) => {
    await workspace.write('a.txt', 'hello');
    await workspace.symlink('link.txt', workspace.at('a.txt'));
    const files = translatedFileSystem(workspace.root, '/virtual');
    expect((await files.stat('/virtual/work/a.txt')).size).toBe(5);
    expect(await files.realpath('/virtual/work/link.txt')).toBe('/virtual/work/a.txt');
    expect(await files.readlink('/virtual/work/link.txt')).toBe('/virtual/work/a.txt');
    expect((await files.readdir('/virtual/work')).map((entry) => entry.name).sort()).toEqual([
      'a.txt',
      'link.txt',
    ]);
    await files.symlink('/virtual/work/a.txt', '/virtual/work/second-link.txt');
    expect(await fs.readlink(workspace.at('second-link.txt'))).toBe(workspace.at('a.txt'));
    expect(files.operations).toEqual([
      'stat /virtual/work/a.txt',
      'realpath /virtual/work/link.txt',
      'readlink /virtual/work/link.txt',
      'readdir /virtual/work',
      'symlink /virtual/work/a.txt /virtual/work/second-link.txt',
    ]);
  });

  it('has the directories above the virtual root, and nothing else outside it', async ({ workspace }) => {
    const files = translatedFileSystem(workspace.root, '/virtual/root');
    expect((await files.stat('/')).isDirectory()).toBe(true);
    expect(await files.realpath('/virtual')).toBe('/virtual');
    expect((await files.readdir('/virtual')).map((entry) => entry.name)).toEqual(['root']);
    await expect(files.stat(workspace.root)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(files.open('/etc/hostname', 'read')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes away what a capability turned off stands for', async ({ workspace }) => {
    await workspace.write('a.txt', 'one');
    await workspace.write('b.txt', 'two');
    const files = translatedFileSystem(workspace.root, '/virtual', {
      capabilities: {
        inodes: false,
        ctime: false,
        linkCounts: false,
        atomicReplace: false,
        timeResolutionMs: 1000,
      },
    });
    const stats = await files.stat('/virtual/work/a.txt');
    expect([stats.ino, stats.dev, stats.ctimeNs, stats.nlink, stats.mtimeNs]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(stats.mtimeMs % 1000).toBe(0);
    const handle = await files.open('/virtual/work/a.txt', 'read');
    expect((await handle.stat()).ino).toBeUndefined();
    await handle.close();
    await expect(files.link('/virtual/work/a.txt', '/virtual/work/c.txt')).rejects.toMatchObject({
      code: 'ENOSYS',
    });
    await expect(files.rename('/virtual/work/a.txt', '/virtual/work/b.txt')).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await fs.readFile(workspace.at('b.txt'), 'utf8')).toBe('two');
  });

  it('makes a runtime on the virtual work dir, whose file system records every path it looks at', async ({
    workspace,
  }) => {
    await workspace.write('a.txt', 'hello');
    const { runtime, at, files } = translatedRuntime(workspace);
    expect(runtime.workDir).toBe('/virtual/work');
    const resolved = await runtime.paths.resolveFile('a.txt', 'read');
    expect(resolved.ok && resolved.path.real).toBe(at('a.txt'));
    expect(files.paths).toContain('/virtual/work/a.txt');
  });
});
