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
  });

  it('throws other failures', async ({ workspace }) => {
    await expect(statIfExists(localFileSystem, `${workspace.workDir}/${'x'.repeat(5000)}`)).rejects.toThrow(
      /ENAMETOOLONG/,
    );
  });
});
