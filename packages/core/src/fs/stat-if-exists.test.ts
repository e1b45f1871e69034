import path from 'node:path';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { statIfExists } from './stat-if-exists.js';
import { localFileSystem } from './local-file-system.js';

describe('statIfExists', () => {
  it('stats what exists and returns undefined for what cannot', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'abc');
    expect((await statIfExists(localFileSystem, file))?.size).toBe(3);
    expect(await statIfExists(localFileSystem, workspace.at('missing'))).toBeUndefined();
    expect(await statIfExists(localFileSystem, path.join(file, 'under-a-file'))).toBeUndefined();
    // A name longer than the file system takes: no file can have it.
    expect(await statIfExists(localFileSystem, workspace.at('x'.repeat(300)))).toBeUndefined();
  });

  it('throws other failures', async ({ workspace }) => {
    await workspace.symlink('loop', workspace.at('loop'));
    await expect(statIfExists(localFileSystem, workspace.at('loop'))).rejects.toThrow(/ELOOP/);
  });
});
