import { promises as fs } from 'node:fs';
import path from 'node:path';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { loadPermissions } from './permissions-file.js';

describe('loadPermissions', () => {
  test('takes none when the work dir has no .kimi-tools/permissions', async ({ workspace }) => {
    expect(await loadPermissions(undefined, workspace.workDir, localFileSystem)).toEqual({
      rules: [],
      source: undefined,
    });
  });

  test("reads the work dir's .kimi-tools/permissions, or the file given instead", async ({ workspace }) => {
    await workspace.write('.kimi-tools/permissions', '# rules\nallow Edit(src/**)\n');
    expect(await loadPermissions(undefined, workspace.workDir, localFileSystem)).toEqual({
      rules: ['allow Edit(src/**)'],
      source: '.kimi-tools/permissions',
    });
    const given = await workspace.write(workspace.outside('rules'), 'deny Read(secrets/)\n');
    expect(await loadPermissions(given, workspace.workDir, localFileSystem)).toEqual({
      rules: ['deny Read(secrets/)'],
      source: given,
    });
  });

  test("reads the work dir's file where the session's files are: in memory here", async () => {
    const files = memoryFileSystem({ files: { '/work/.kimi-tools/permissions': 'deny Edit(**/*.lock)\n' } });
    expect(await loadPermissions(undefined, '/work', files)).toEqual({
      rules: ['deny Edit(**/*.lock)'],
      source: '.kimi-tools/permissions',
    });
    expect(await loadPermissions(undefined, '/elsewhere', files)).toEqual({ rules: [], source: undefined });
  });

  test('says which file cannot be read, or which line holds an invalid rule', async ({ workspace }) => {
    const missing = workspace.outside('none');
    expect(await loadPermissions(missing, workspace.workDir, localFileSystem)).toEqual({
      error: `--permissions ${missing} cannot be read: ENOENT: no such file or directory, open '${missing}'`,
    });
    await workspace.write('.kimi-tools/permissions', 'allow Edit(src/**)\npermit Edit\n');
    expect(await loadPermissions(undefined, workspace.workDir, localFileSystem)).toEqual({
      error:
        '.kimi-tools/permissions: line 2: invalid permission rule `permit Edit`: `permit` is not an effect: use allow, ask or deny.',
    });
    await fs.rm(workspace.at('.kimi-tools/permissions'));
    await fs.mkdir(path.join(workspace.workDir, '.kimi-tools/permissions'));
    expect(await loadPermissions(undefined, workspace.workDir, localFileSystem)).toEqual({
      error: '.kimi-tools/permissions cannot be read: EISDIR: illegal operation on a directory, read',
    });
  });
});
