import path from 'node:path';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { statIfExists } from './stat-if-exists.js';

describe('statIfExists', () => {
  it('stats what exists and returns undefined for what cannot', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'abc');
    expect((await statIfExists(file))?.size).toBe(3);
    expect(await statIfExists(workspace.at('missing'))).toBeUndefined();
    expect(await statIfExists(path.join(file, 'under-a-file'))).toBeUndefined();
  });

  it('throws other failures', async ({ workspace }) => {
    await expect(statIfExists(`${workspace.workDir}/${'x'.repeat(5000)}`)).rejects.toThrow(/ENAMETOOLONG/);
  });
});
