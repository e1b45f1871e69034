import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realPathAllowMissing } from './real-path.js';

let root: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-realpath-')));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('realPathAllowMissing', () => {
  it('returns the real path of an existing file', async () => {
    await fs.writeFile(path.join(root, 'a.txt'), 'a');
    expect(await realPathAllowMissing(path.join(root, 'a.txt'))).toBe(path.join(root, 'a.txt'));
  });

  it('appends a missing tail to the deepest existing directory', async () => {
    await fs.mkdir(path.join(root, 'src'));
    expect(await realPathAllowMissing(path.join(root, 'src', 'new', 'deep', 'x.ts'))).toBe(
      path.join(root, 'src', 'new', 'deep', 'x.ts'),
    );
  });

  it('resolves a symlinked directory in the existing prefix', async () => {
    await fs.mkdir(path.join(root, 'target'));
    await fs.symlink(path.join(root, 'target'), path.join(root, 'link'));
    expect(await realPathAllowMissing(path.join(root, 'link', 'missing', 'x.ts'))).toBe(
      path.join(root, 'target', 'missing', 'x.ts'),
    );
  });

  it('resolves relative symlinks and file symlinks', async () => {
    await fs.mkdir(path.join(root, 'd'));
    await fs.writeFile(path.join(root, 'd', 'real.txt'), 'x');
    await fs.symlink('d/real.txt', path.join(root, 'alias.txt'));
    expect(await realPathAllowMissing(path.join(root, 'alias.txt'))).toBe(path.join(root, 'd', 'real.txt'));
  });

  it('follows a dangling symlink to where a write through it would land', async () => {
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere', 'not-yet.txt'), path.join(root, 'dangling'));
    expect(await realPathAllowMissing(path.join(root, 'dangling'))).toBe(
      path.join(root, 'elsewhere', 'not-yet.txt'),
    );
  });

  it('follows a dangling directory symlink and keeps the tail', async () => {
    await fs.symlink(path.join(root, 'gone', 'dir'), path.join(root, 'dirlink'));
    expect(await realPathAllowMissing(path.join(root, 'dirlink', 'f.txt'))).toBe(
      path.join(root, 'gone', 'dir', 'f.txt'),
    );
  });

  it('resolves every level of a deep tree with a deep missing tail and a relative dangling link inside', async () => {
    const existing = Array.from({ length: 120 }, (_, index) => `e${index}`);
    await fs.mkdir(path.join(root, 'real', ...existing), { recursive: true });
    await fs.symlink('real', path.join(root, 'alias'));
    await fs.symlink('../elsewhere', path.join(root, 'real', ...existing, 'hop'));
    const missing = Array.from({ length: 150 }, (_, index) => `m${index}`);
    expect(await realPathAllowMissing(path.join(root, 'alias', ...existing, ...missing, 'f.txt'))).toBe(
      path.join(root, 'real', ...existing, ...missing, 'f.txt'),
    );
    expect(await realPathAllowMissing(path.join(root, 'alias', ...existing, 'hop', ...missing))).toBe(
      path.join(root, 'real', ...existing.slice(0, -1), 'elsewhere', ...missing),
    );
  });

  it('stops at a symlink loop without throwing', async () => {
    await fs.symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await fs.symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    const real = await realPathAllowMissing(path.join(root, 'loop-a', 'x.txt'));
    expect(path.dirname(path.dirname(real))).toBe(root);
    expect(path.basename(real)).toBe('x.txt');
  });

  it('stops at a self-referencing symlink without throwing', async () => {
    await fs.symlink(path.join(root, 'self'), path.join(root, 'self'));
    expect(await realPathAllowMissing(path.join(root, 'self'))).toBe(path.join(root, 'self'));
  });

  it('treats a file used as a directory (ENOTDIR) as not resolvable further', async () => {
    await fs.writeFile(path.join(root, 'file.txt'), 'x');
    expect(await realPathAllowMissing(path.join(root, 'file.txt', 'child'))).toBe(
      path.join(root, 'file.txt', 'child'),
    );
  });

  it('normalises . and .. lexically before resolving', async () => {
    await fs.mkdir(path.join(root, 'a'));
    expect(await realPathAllowMissing(`${root}/a/./../a/x`)).toBe(path.join(root, 'a', 'x'));
  });

  it('returns a path under / when nothing but the root exists', async () => {
    const missing = path.join(path.parse(root).root, `kimi-missing-${path.basename(root)}`, 'x');
    expect(await realPathAllowMissing(missing)).toBe(missing);
  });
});
