import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { createCheckpoints } from '@kimi-tools/checkpoints';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { SOAK } from '../support/iterations.js';

// Issue 32: a 200 MB file within the checkpoints' size limit is stored and rewound byte for byte. Soak only: its
// hashes, writes and flushes of 200 MB take seconds (the same file over the limit is a test of the package).

const SIZE = 200 * 1024 * 1024;

/** A 200 MB file made quickly: sparse, with `marker` written at its start, its middle and its end. */
async function bigFile(file: string, marker: string): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    await handle.truncate(SIZE);
    for (const at of [0, SIZE / 2, SIZE - marker.length]) await handle.write(marker, at);
  } finally {
    await handle.close();
  }
}

/** The SHA-256 of a file, read as a stream. */
async function hashOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe.runIf(SOAK)('a 200 MB file within the checkpoints size limit', () => {
  test('is stored, compressed, and rewound byte for byte', async ({ workspace, runtime }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store, maxFileBytes: 256 * 1024 * 1024 });
    await bigFile(workspace.at('big.bin'), 'first version');
    const first = await hashOf(workspace.at('big.bin'));
    await checkpoints.create();
    await bigFile(workspace.at('big.bin'), 'later version');
    expect((await checkpoints.create()).files).toEqual([{ path: 'big.bin', change: 'modified' }]);
    // Two versions stored: the zeros take next to nothing.
    let stored = 0;
    for (const entry of await fs.readdir(store, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith('.pack'))
        stored += (await fs.stat(`${entry.parentPath}/${entry.name}`)).size;
    expect(stored).toBeLessThan(2 * 1024 * 1024);
    expect(await checkpoints.rewind('1')).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'big.bin', change: 'modified' }],
    });
    expect((await fs.stat(workspace.at('big.bin'))).size).toBe(SIZE);
    expect(await hashOf(workspace.at('big.bin'))).toBe(first);
  });
});
