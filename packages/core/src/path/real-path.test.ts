import fs from 'node:fs/promises';
import path from 'node:path';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { realPathAllowMissing } from './real-path.js';
import { localFileSystem } from '../fs/local-file-system.js';
import type { FileSystem } from '../fs/file-system.js';

/**
 * The local disk with `realpathLastMayBeMissing` as OpenSSH answers it (the parent resolved, the last name kept or
 * its dangling link followed; a missing parent rejected), and every call recorded.
 */
function withLastMayBeMissing(calls: string[]): FileSystem {
  return {
    ...localFileSystem,
    realpath: (filePath) => {
      calls.push(`realpath ${filePath}`);
      return localFileSystem.realpath(filePath);
    },
    async realpathLastMayBeMissing(filePath) {
      calls.push(`realpathLastMayBeMissing ${filePath}`);
      const parent = await localFileSystem.realpath(path.dirname(filePath));
      const last = path.join(parent, path.basename(filePath));
      const link = await localFileSystem.readlink(last).catch(() => undefined);
      return link === undefined ? last : path.resolve(parent, link);
    },
  };
}

describe('realPathAllowMissing', () => {
  it('returns the real path of an existing file', async ({ workspace }) => {
    await workspace.write('a.txt', 'a');
    expect(await realPathAllowMissing(localFileSystem, workspace.at('a.txt'))).toBe(workspace.at('a.txt'));
  });

  it('appends a missing tail to the deepest existing directory', async ({ workspace }) => {
    await workspace.mkdir('src');
    expect(
      await realPathAllowMissing(localFileSystem, path.join(workspace.workDir, 'src', 'new', 'deep', 'x.ts')),
    ).toBe(path.join(workspace.workDir, 'src', 'new', 'deep', 'x.ts'));
  });

  it('resolves a symlinked directory in the existing prefix', async ({ workspace }) => {
    await workspace.mkdir('target');
    await workspace.symlink('link', workspace.at('target'));
    expect(
      await realPathAllowMissing(localFileSystem, path.join(workspace.workDir, 'link', 'missing', 'x.ts')),
    ).toBe(path.join(workspace.workDir, 'target', 'missing', 'x.ts'));
  });

  it('resolves relative symlinks and file symlinks', async ({ workspace }) => {
    await workspace.mkdir('d');
    await fs.writeFile(path.join(workspace.workDir, 'd', 'real.txt'), 'x');
    await workspace.symlink('alias.txt', 'd/real.txt');
    expect(await realPathAllowMissing(localFileSystem, workspace.at('alias.txt'))).toBe(
      path.join(workspace.workDir, 'd', 'real.txt'),
    );
  });

  it('follows a dangling symlink to where a write through it would land', async ({ workspace }) => {
    await workspace.mkdir('elsewhere');
    await workspace.symlink('dangling', path.join(workspace.workDir, 'elsewhere', 'not-yet.txt'));
    expect(await realPathAllowMissing(localFileSystem, workspace.at('dangling'))).toBe(
      path.join(workspace.workDir, 'elsewhere', 'not-yet.txt'),
    );
  });

  it('follows a dangling directory symlink and keeps the tail', async ({ workspace }) => {
    await workspace.symlink('dirlink', path.join(workspace.workDir, 'gone', 'dir'));
    expect(
      await realPathAllowMissing(localFileSystem, path.join(workspace.workDir, 'dirlink', 'f.txt')),
    ).toBe(path.join(workspace.workDir, 'gone', 'dir', 'f.txt'));
  });

  it('resolves every level of a deep tree with a deep missing tail and a relative dangling link inside', async ({
    workspace,
  }) => {
    const existing = Array.from({ length: 120 }, (_, index) => `e${index}`);
    await fs.mkdir(path.join(workspace.workDir, 'real', ...existing), { recursive: true });
    await workspace.symlink('alias', 'real');
    await fs.symlink('../elsewhere', path.join(workspace.workDir, 'real', ...existing, 'hop'));
    const missing = Array.from({ length: 150 }, (_, index) => `m${index}`);
    expect(
      await realPathAllowMissing(
        localFileSystem,
        path.join(workspace.workDir, 'alias', ...existing, ...missing, 'f.txt'),
      ),
    ).toBe(path.join(workspace.workDir, 'real', ...existing, ...missing, 'f.txt'));
    expect(
      await realPathAllowMissing(
        localFileSystem,
        path.join(workspace.workDir, 'alias', ...existing, 'hop', ...missing),
      ),
    ).toBe(path.join(workspace.workDir, 'real', ...existing.slice(0, -1), 'elsewhere', ...missing));
  });

  it('stops at a symlink loop without throwing', async ({ workspace }) => {
    await workspace.symlink('loop-a', workspace.at('loop-b'));
    await workspace.symlink('loop-b', workspace.at('loop-a'));
    const real = await realPathAllowMissing(localFileSystem, path.join(workspace.workDir, 'loop-a', 'x.txt'));
    expect(path.dirname(path.dirname(real))).toBe(workspace.workDir);
    expect(path.basename(real)).toBe('x.txt');
  });

  it('stops at a self-referencing symlink without throwing', async ({ workspace }) => {
    await workspace.symlink('self', workspace.at('self'));
    expect(await realPathAllowMissing(localFileSystem, workspace.at('self'))).toBe(workspace.at('self'));
  });

  it('treats a file used as a directory (ENOTDIR) as not resolvable further', async ({ workspace }) => {
    await workspace.write('file.txt', 'x');
    expect(
      await realPathAllowMissing(localFileSystem, path.join(workspace.workDir, 'file.txt', 'child')),
    ).toBe(path.join(workspace.workDir, 'file.txt', 'child'));
  });

  it('normalises . and .. lexically before resolving', async ({ workspace }) => {
    await workspace.mkdir('a');
    expect(await realPathAllowMissing(localFileSystem, `${workspace.workDir}/a/./../a/x`)).toBe(
      path.join(workspace.workDir, 'a', 'x'),
    );
  });

  it('asks a backend that resolves a missing last name itself once, and nothing more', async ({
    workspace,
  }) => {
    await workspace.mkdir('d');
    await workspace.symlink('link', workspace.at('d'));
    await workspace.symlink('dangling', workspace.at('d/later.txt'));
    const calls: string[] = [];
    const fs = withLastMayBeMissing(calls);
    expect(await realPathAllowMissing(fs, workspace.at('link/new.txt'))).toBe(workspace.at('d/new.txt'));
    expect(await realPathAllowMissing(fs, workspace.at('dangling'))).toBe(workspace.at('d/later.txt'));
    expect(calls).toEqual([
      `realpathLastMayBeMissing ${workspace.at('link/new.txt')}`,
      `realpathLastMayBeMissing ${workspace.at('dangling')}`,
    ]);
  });

  it('falls back to resolving prefix by prefix where that backend call is refused', async ({ workspace }) => {
    await workspace.mkdir('d');
    await workspace.symlink('link', workspace.at('d'));
    const calls: string[] = [];
    const deep = path.join(workspace.workDir, 'link', 'new', 'deeper', 'x.ts');
    expect(await realPathAllowMissing(withLastMayBeMissing(calls), deep)).toBe(
      path.join(workspace.workDir, 'd', 'new', 'deeper', 'x.ts'),
    );
    expect(calls[0]).toBe(`realpathLastMayBeMissing ${deep}`);
    expect(calls.slice(1).every((call) => call.startsWith('realpath '))).toBe(true);
  });

  it('returns a path under / when nothing but the root exists', async ({ workspace }) => {
    const missing = path.join(
      path.parse(workspace.workDir).root,
      `kimi-missing-${path.basename(workspace.workDir)}`,
      'x',
    );
    expect(await realPathAllowMissing(localFileSystem, missing)).toBe(missing);
  });
});
