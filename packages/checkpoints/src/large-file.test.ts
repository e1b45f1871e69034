import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints } from './index.js';
import { CheckpointStore } from './store/checkpoint-store.js';

const SIZE = 200 * 1024 * 1024;

/**
 * A 200 MB file made quickly: sparse (zeros the disk does not hold), with `marker` written at its start, its middle
 * and its end.
 */
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

// The same file within the size limit, stored and rewound byte for byte, is in the soak run of the reliability suite
// (apps/reliability/src/large-files): its hashes, writes and flushes of 200 MB take seconds.
describe('a 200 MB file', () => {
  test('over the size limit is recorded but not stored, and a rewind leaves it alone and says why', async ({
    workspace,
    runtime,
  }) => {
    const store = workspace.outside('store');
    const checkpoints = createCheckpoints(runtime, { dir: store });
    await bigFile(workspace.at('big.bin'), 'first version');
    await workspace.write('small.txt', 'one\n');
    await checkpoints.create();
    await bigFile(workspace.at('big.bin'), 'later version');
    await workspace.write('small.txt', 'two\n');
    const later = await hashOf(workspace.at('big.bin'));
    expect((await checkpoints.create()).files).toEqual([
      { path: 'big.bin', change: 'modified' },
      { path: 'small.txt', change: 'modified' },
    ]);
    expect(await new CheckpointStore(store).sizeOnDisk()).toBeLessThan(64 * 1024);
    expect(await checkpoints.rewind('1')).toMatchObject({
      kind: 'rewound',
      restored: [{ path: 'small.txt', change: 'modified' }],
      leftAlone: [{ path: 'big.bin', reason: 'not-restorable' }],
    });
    expect(await hashOf(workspace.at('big.bin'))).toBe(later);
  });
});
