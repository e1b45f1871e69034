import { expect } from 'vitest';
import { expectCode, writeFully, type ConformanceCase } from './conformance-case.js';

/** Symbolic links (stored as given, resolved by realpath) and hard links (where the backend counts them). */
export const linkCases: readonly ConformanceCase[] = [
  {
    name: 'symlink stores its target as given, and readlink returns it unchanged, dangling or not',
    async run(context) {
      const { fs } = context;
      const targets = ['../some/where', `${context.root}/absolute`, 'with space/é 日本', 'plain'];
      for (const [index, target] of targets.entries()) {
        await fs.symlink(target, context.at(`link-${index}`));
        expect(await fs.readlink(context.at(`link-${index}`))).toBe(target);
      }
    },
  },
  {
    name: 'readlink rejects EINVAL for a file or a directory and ENOENT for a missing path, and follows parent links',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file.txt', 'x');
      await fs.mkdir(context.at('dir'));
      await expectCode(fs.readlink(file), 'EINVAL');
      await expectCode(fs.readlink(context.at('dir')), 'EINVAL');
      await expectCode(fs.readlink(context.at('missing')), 'ENOENT');
      await fs.symlink('target', context.at('dir/inner'));
      await fs.symlink('dir', context.at('dir-link'));
      expect(await fs.readlink(context.at('dir-link/inner'))).toBe('target');
    },
  },
  {
    name: 'symlink rejects EEXIST over a file or a dangling link, ENOENT where the parent is missing',
    async run(context) {
      const { fs } = context;
      const file = await context.write('file.txt', 'x');
      await fs.symlink('nowhere', context.at('dangling'));
      await expectCode(fs.symlink('elsewhere', file), 'EEXIST');
      await expectCode(fs.symlink('elsewhere', context.at('dangling')), 'EEXIST');
      expect(await fs.readlink(context.at('dangling'))).toBe('nowhere');
      await expectCode(fs.symlink('elsewhere', context.at('missing/link')), 'ENOENT');
    },
  },
  {
    name: 'realpath returns the root itself, and resolves chains of relative and absolute links',
    async run(context) {
      const { fs, root } = context;
      expect(await fs.realpath(root)).toBe(root);
      await fs.mkdir(context.at('real'));
      const file = await context.write('real/f.txt', 'x');
      await fs.symlink('real', context.at('a'));
      await fs.symlink(context.at('a'), context.at('b'));
      await fs.symlink('b/f.txt', context.at('c'));
      for (let index = 0; index < 10; index++) {
        await fs.symlink(index === 0 ? 'c' : `chain-${index - 1}`, context.at(`chain-${index}`));
      }
      expect(await fs.realpath(context.at('b'))).toBe(context.at('real'));
      expect(await fs.realpath(context.at('b/f.txt'))).toBe(file);
      expect(await fs.realpath(context.at('c'))).toBe(file);
      expect(await fs.realpath(context.at('chain-9'))).toBe(file);
      expect(await fs.realpath(context.at('./real/../real/./f.txt'))).toBe(file);
    },
  },
  {
    name: 'realpath resolves a link before the `..` that follows it, as the kernel does',
    async run(context) {
      const { fs } = context;
      await fs.mkdir(context.at('deep/er'), { recursive: true });
      const file = await context.write('deep/beside.txt', 'x');
      await fs.symlink('deep/er', context.at('shortcut'));
      // `shortcut/..` is the parent of `deep/er`, not the root the text suggests.
      expect(await fs.realpath(context.at('shortcut/../beside.txt'))).toBe(file);
      expect((await context.read(context.at('shortcut/../beside.txt'))).toString()).toBe('x');
    },
  },
  {
    name: 'realpath rejects ELOOP on a loop of links (and so do stat and open), ENOENT on a dangling one',
    async run(context) {
      const { fs } = context;
      await fs.symlink('loop-b', context.at('loop-a'));
      await fs.symlink('loop-a', context.at('loop-b'));
      await fs.symlink('self', context.at('self'));
      await fs.symlink('nowhere', context.at('dangling'));
      await expectCode(fs.realpath(context.at('loop-a')), 'ELOOP');
      await expectCode(fs.realpath(context.at('self')), 'ELOOP');
      await expectCode(fs.realpath(context.at('self/inside')), 'ELOOP');
      await expectCode(fs.stat(context.at('loop-a')), 'ELOOP');
      await expectCode(fs.open(context.at('loop-a'), 'read'), 'ELOOP');
      await expectCode(fs.realpath(context.at('dangling')), 'ENOENT');
      await expectCode(fs.realpath(context.at('missing')), 'ENOENT');
    },
  },
  {
    name: 'realpath rejects ENOTDIR through a file',
    async run(context) {
      const file = await context.write('file.txt', 'x');
      await expectCode(context.fs.realpath(`${file}/inside`), 'ENOTDIR');
    },
  },
  {
    name: 'realpathLastMayBeMissing, where given, resolves like realpath and also a missing last name, nothing deeper',
    async run(context) {
      const { fs } = context;
      const resolve = fs.realpathLastMayBeMissing?.bind(fs);
      if (!resolve)
        return context.skip('the backend does not give realpathLastMayBeMissing (it is optional)');
      await fs.mkdir(context.at('real'));
      const file = await context.write('real/f.txt', 'x');
      await fs.symlink('real', context.at('link'));
      await fs.symlink('real/later.txt', context.at('dangling'));
      expect(await resolve(context.at('link/f.txt'))).toBe(file);
      expect(await resolve(context.at('link'))).toBe(context.at('real'));
      expect(await resolve(context.at('link/new.txt'))).toBe(context.at('real/new.txt'));
      expect(await resolve(context.at('dangling'))).toBe(context.at('real/later.txt'));
      await expect(resolve(context.at('missing/new.txt'))).rejects.toThrow();
      await expect(resolve(context.at('real/f.txt/inside'))).rejects.toThrow();
    },
  },
  {
    name: 'link makes a second name of one file: same inode, both counted, an in-place write seen through both',
    async run(context) {
      const { fs } = context;
      const first = await context.write('first', 'shared');
      const second = context.at('second');
      if (!fs.capabilities.linkCounts) {
        await expectCode(fs.link(first, second), 'ENOSYS');
        context.skip('capabilities.linkCounts is false (link rejects ENOSYS, as it must)');
      }
      expect((await fs.stat(first)).nlink).toBe(1);
      await fs.link(first, second);
      const [statsFirst, statsSecond] = [await fs.stat(first), await fs.stat(second)];
      expect(statsFirst.nlink).toBe(2);
      expect(statsSecond.nlink).toBe(2);
      if (fs.capabilities.inodes) expect(statsSecond.ino).toBe(statsFirst.ino);
      const file = await fs.open(second, 'update');
      try {
        await writeFully(file, Buffer.from('SH'), 0);
      } finally {
        await file.close();
      }
      expect((await context.read(first)).toString()).toBe('SHared');
      await fs.unlink(first);
      expect((await fs.stat(second)).nlink).toBe(1);
      expect((await context.read(second)).toString()).toBe('SHared');
    },
  },
  {
    name: 'link rejects EEXIST onto an existing name, ENOENT from a missing file, EPERM for a directory',
    async run(context) {
      const { fs } = context;
      if (!fs.capabilities.linkCounts) context.skip('capabilities.linkCounts is false');
      const first = await context.write('first', 'a');
      const other = await context.write('other', 'b');
      await fs.mkdir(context.at('dir'));
      await expectCode(fs.link(first, other), 'EEXIST');
      await expectCode(fs.link(context.at('missing'), context.at('new')), 'ENOENT');
      await expectCode(fs.link(context.at('dir'), context.at('dir-link')), 'EPERM');
      expect((await context.read(other)).toString()).toBe('b');
    },
  },
];
