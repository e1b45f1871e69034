import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rejectAllApproval } from '@kimi-tools/core';
import { hashBytes } from '@kimi-tools/core/toolkit';
import { describe, expect } from 'vitest';
import { createTempWorkspace } from './temp-workspace.js';
import { test } from './workspace-test.js';

describe('the workspace fixture', () => {
  test('is a real temp directory holding an empty work dir and an empty directory outside it', async ({
    workspace,
  }) => {
    expect(await fs.realpath(workspace.root)).toBe(workspace.root);
    expect(path.dirname(workspace.root)).toBe(await fs.realpath(os.tmpdir()));
    expect(workspace.workDir).toBe(path.join(workspace.root, 'work'));
    expect(workspace.outsideDir).toBe(path.join(workspace.root, 'outside'));
    expect((await fs.readdir(workspace.root)).sort()).toEqual(['outside', 'work']);
    expect(await fs.readdir(workspace.workDir)).toEqual([]);
    expect(await fs.readdir(workspace.outsideDir)).toEqual([]);
    expect(workspace.at('a/b.txt')).toBe(path.join(workspace.root, 'work', 'a', 'b.txt'));
    expect(workspace.outside('c.txt')).toBe(path.join(workspace.root, 'outside', 'c.txt'));
  });

  let previousRoot = '';
  test('gives each test a workspace of its own (1/2)', ({ workspace }) => {
    previousRoot = workspace.root;
  });
  test('gives each test a workspace of its own, and removes it after the test (2/2)', async ({
    workspace,
  }) => {
    expect(previousRoot).not.toBe('');
    expect(workspace.root).not.toBe(previousRoot);
    await expect(fs.stat(previousRoot)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('writing and reading back', () => {
  test('writes text as UTF-8 and bytes as they are, creating parents, under the work dir or where told', async ({
    workspace,
  }) => {
    const text = await workspace.write('deep/er/é.txt', 'héllo\n');
    expect(text).toBe(workspace.at('deep/er/é.txt'));
    expect(await fs.readFile(text, 'utf8')).toBe('héllo\n');
    const binary = await workspace.write(
      workspace.outside('x/raw.bin'),
      Uint8Array.from([0, 0xff, 0x0d, 0x0a]),
    );
    expect(binary).toBe(workspace.outside('x/raw.bin'));
    expect(await workspace.bytes(binary)).toEqual([0, 0xff, 0x0d, 0x0a]);
    expect(await workspace.bytes('deep/er/é.txt')).toEqual([...Buffer.from('héllo\n', 'utf8')]);
    const empty = await workspace.write('empty.txt');
    expect((await fs.stat(empty)).size).toBe(0);
  });

  test('writes a whole tree, makes directories and symlinks', async ({ workspace }) => {
    await workspace.writeAll({ 'a.txt': 'a', 'src/b.ts': 'b', 'src/c/d.bin': Uint8Array.from([1]) });
    expect(await fs.readFile(workspace.at('src/b.ts'), 'utf8')).toBe('b');
    expect(await workspace.bytes('src/c/d.bin')).toEqual([1]);
    expect(await workspace.mkdir('empty/dir')).toBe(workspace.at('empty/dir'));
    expect((await fs.stat(workspace.at('empty/dir'))).isDirectory()).toBe(true);
    const link = await workspace.symlink('links/to-a.txt', '../a.txt');
    expect(link).toBe(workspace.at('links/to-a.txt'));
    expect(await fs.readlink(link)).toBe('../a.txt');
    expect(await fs.readFile(link, 'utf8')).toBe('a');
  });

  test('records a complete read, under the real path, when asked', async ({ workspace, runtime }) => {
    const plain = await workspace.write('plain.txt', 'not read');
    expect(runtime.fileState.get(plain)).toBeUndefined();
    const file = await workspace.write('read.txt', 'read\n', { readBy: runtime });
    expect(runtime.fileState.get(file)).toMatchObject({
      complete: true,
      size: 5,
      hash: hashBytes(Buffer.from('read\n')),
      mtimeNs: (await fs.stat(file, { bigint: true })).mtimeNs.toString(),
      ino: (await fs.stat(file, { bigint: true })).ino.toString(),
    });
    expect(await runtime.fileState.check(file)).toBe('ok');
  });
});

describe('runtimes', () => {
  test('are on the work dir with the recording approval, and take createRuntime options', async ({
    workspace,
    runtime,
    approval,
  }) => {
    expect(runtime.workDir).toBe(workspace.workDir);
    expect(runtime.approval).toBe(workspace.approval);
    expect(approval).toBe(workspace.approval);
    expect(runtime.outside).toBe('allow');
    const strict = workspace.runtime({ outside: 'deny', readBeforeWrite: false });
    expect(strict.workDir).toBe(workspace.workDir);
    expect(strict.outside).toBe('deny');
    expect(strict.readBeforeWrite).toBe(false);
    expect(strict.fileState).not.toBe(runtime.fileState);
    const rejecting = rejectAllApproval('no');
    expect(workspace.runtime({ approval: rejecting }).approval).toBe(rejecting);
  });
});

describe('createTempWorkspace', () => {
  test('makes the same workspace outside a fixture, in the parent asked for, until cleanup', async () => {
    const parent = await createTempWorkspace();
    try {
      const inner = await createTempWorkspace({ parent: parent.outsideDir });
      expect(path.dirname(inner.root)).toBe(parent.outsideDir);
      expect((await fs.readdir(inner.root)).sort()).toEqual(['outside', 'work']);
      await inner.write('a.txt', 'a');
      await inner.cleanup();
      await expect(fs.stat(inner.root)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await parent.cleanup();
    }
    await expect(fs.stat(parent.root)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
