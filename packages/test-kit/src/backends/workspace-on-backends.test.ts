import { promises as nodeFs } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createTempWorkspace } from '../temp-workspace.js';
import { backendHas, failsWhere } from './backend-limits.js';
import { TEST_BACKEND_VARIABLE } from './backend-names.js';
import { forwardingFileSystem } from './forwarding-file-system.js';
import { testBackendName } from './test-backend.js';

// The SSH backend's workspace is checked by every tool suite's `ssh` project, which has the run's server.
describe.each(['local', 'memory'] as const)('a workspace on the %s backend', (backend) => {
  test('sets up and inspects its files through the backend alone, and cleanup removes them', async () => {
    const workspace = await createTempWorkspace({ backend });
    expect(workspace.backend).toBe(backend);
    expect(workspace.fs.name).toBe(backend);
    await workspace.writeAll({ 'a.txt': 'héllo\n', 'src/b.bin': Uint8Array.from([0, 0xff]) });
    await workspace.symlink('link.txt', 'a.txt');
    await workspace.mkdir('empty/dir');
    expect(await workspace.read('link.txt')).toBe('héllo\n');
    expect(await workspace.bytes('src/b.bin')).toEqual([0, 0xff]);
    expect(await workspace.list()).toEqual(['a.txt', 'empty', 'link.txt', 'src']);
    expect(await workspace.exists('empty/dir')).toBe(true);
    expect(await workspace.exists('a.txt/x')).toBe(false);
    // On memory, nothing reached the local disk.
    expect(
      await nodeFs.stat(workspace.at('a.txt')).then(
        () => 'local disk',
        () => 'elsewhere',
      ),
    ).toBe(backend === 'local' ? 'local disk' : 'elsewhere');
    const runtime = workspace.runtime();
    expect(runtime.fs).toBe(workspace.fs);
    expect((await runtime.fs.stat(workspace.at('a.txt'))).size).toBe(7);
    await workspace.remove('src');
    await workspace.remove('never-there');
    expect(await workspace.list()).toEqual(['a.txt', 'empty', 'link.txt']);
    await workspace.cleanup();
    await expect(workspace.fs.lstat(workspace.root)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('rewrites an existing file in place, as fs.writeFile does: a hard link sees the new content', async () => {
    const workspace = await createTempWorkspace({ backend });
    try {
      const file = await workspace.write('a.txt', 'a long first version\n');
      await workspace.fs.link(file, workspace.at('b.txt'));
      await workspace.write('a.txt', 'short\n');
      expect(await workspace.read('b.txt')).toBe('short\n');
    } finally {
      await workspace.cleanup();
    }
  });

  test('a forwarding file system is the backend, with any operation replaced', async () => {
    const workspace = await createTempWorkspace({ backend });
    try {
      const renamed: string[] = [];
      const fs = forwardingFileSystem(workspace.fs);
      const spying = {
        ...fs,
        rename: (from: string, to: string) => (renamed.push(to), fs.rename(from, to)),
      };
      const runtime = workspace.runtime({ fs: spying, readBeforeWrite: false });
      const file = await workspace.write('a.txt', 'a\n');
      expect(spying.capabilities).toBe(workspace.fs.capabilities);
      expect(spying.homeDir).toBe(workspace.fs.homeDir);
      expect(await runtime.fs.realpath(file)).toBe(file);
      await spying.rename(file, workspace.at('b.txt'));
      expect(renamed).toEqual([workspace.at('b.txt')]);
      expect(await workspace.list()).toEqual(['b.txt']);
    } finally {
      await workspace.cleanup();
    }
  });
});

describe('the run’s backend', () => {
  test(`is named by ${TEST_BACKEND_VARIABLE}, the local disk by default, a wrong name refused; it says what runs there`, () => {
    const saved = process.env[TEST_BACKEND_VARIABLE];
    try {
      delete process.env[TEST_BACKEND_VARIABLE];
      expect(testBackendName()).toBe('local');
      process.env[TEST_BACKEND_VARIABLE] = 'memory';
      expect(testBackendName()).toBe('memory');
      expect([backendHas('disk'), backendHas('hard-links'), backendHas('this-process')]).toEqual([
        false,
        true,
        false,
      ]);
      const fakeTest = { fails: 'expected to fail' };
      expect(failsWhere(fakeTest, 'sftp-hard-links')).toBe(fakeTest);
      process.env[TEST_BACKEND_VARIABLE] = 'ssh';
      expect([backendHas('disk'), backendHas('hard-links'), backendHas('exact-times')]).toEqual([
        true,
        false,
        true,
      ]);
      expect(failsWhere(fakeTest, 'sftp-hard-links')).toBe('expected to fail');
      process.env[TEST_BACKEND_VARIABLE] = 'nfs';
      expect(() => testBackendName()).toThrow('KIMI_TEST_FS must be one of local, memory, ssh, not nfs');
    } finally {
      if (saved === undefined) delete process.env[TEST_BACKEND_VARIABLE];
      else process.env[TEST_BACKEND_VARIABLE] = saved;
    }
  });
});
