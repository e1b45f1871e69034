import { constants as fsConstants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyFileChange, type ApplyOutcome } from './apply-file-change.js';
import { withFileLock } from './file-lock.js';
import { writeFileAtomic } from './atomic-write.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** The OS temp dir (ext4 on Linux CI), and a tmpfs where the machine has one at /dev/shm. */
const SHM = '/dev/shm';
const shmIsUsable = await fs.access(SHM, fsConstants.W_OK).then(
  () => true,
  () => false,
);
const ROOTS = [os.tmpdir(), ...(shmIsUsable ? [SHM] : [])];

let workspace: TempWorkspace;
afterEach(async () => {
  await workspace.cleanup();
});

/** File names of 245 to 255 bytes (the limit of ext4, tmpfs, APFS, NTFS), ASCII and multi-byte. */
const LONG_NAMES = [
  ...Array.from({ length: 11 }, (_, extra) => `${'n'.repeat(241 + extra)}.txt`),
  `${'é'.repeat(125)}.txt`, // 254 bytes, two per character
  `${'中'.repeat(83)}.md`, // 252 bytes, three per character
  `${'😀'.repeat(62)}.txt`, // 252 bytes, four per character (two UTF-16 units)
];

async function applyText(file: string, text: string): Promise<ApplyOutcome> {
  const runtime = workspace.runtime();
  const resolved = await runtime.paths.resolveFile(file, 'write');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const oldBytes = await fs.readFile(resolved.path.real).catch(() => null);
  return applyFileChange(runtime, {
    sender: 'test',
    verb: 'Write',
    path: resolved.path,
    oldBytes,
    newBytes: Buffer.from(text, 'utf8'),
    oldText: oldBytes?.toString('utf8') ?? '',
    newText: text,
    checkReadState: false,
  });
}

describe.each(ROOTS)('targets with the longest names a file system allows, under %s', (root) => {
  beforeEach(async () => {
    workspace = await createTempWorkspace({ parent: root });
  });

  it('names are what the test says they are', () => {
    for (const name of LONG_NAMES) {
      expect(Buffer.byteLength(name)).toBeGreaterThanOrEqual(245);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    }
  });

  it('creates and then changes each of them, leaving no temp or lock file behind', async () => {
    for (const name of LONG_NAMES) {
      const file = path.join(workspace.workDir, name);
      expect((await applyText(file, 'first\n')).kind).toBe('written');
      expect((await applyText(file, 'second\n')).kind).toBe('written');
      expect(await fs.readFile(file, 'utf8')).toBe('second\n');
    }
    expect((await fs.readdir(workspace.workDir)).sort()).toEqual([...LONG_NAMES].sort());
  });

  it('locks and atomically writes them directly', async () => {
    for (const name of LONG_NAMES) {
      const file = path.join(workspace.workDir, name);
      await withFileLock(localFileSystem, file, () =>
        writeFileAtomic(localFileSystem, file, Buffer.from('locked\n')),
      );
      expect(await fs.readFile(file, 'utf8')).toBe('locked\n');
    }
    expect((await fs.readdir(workspace.workDir)).sort()).toEqual([...LONG_NAMES].sort());
  });

  it('gives two long names that share their first 240 bytes locks of their own', async () => {
    const [first, second] = [`${'s'.repeat(248)}-a.txt`, `${'s'.repeat(248)}-b.txt`];
    const order: string[] = [];
    await withFileLock(localFileSystem, path.join(workspace.workDir, first), async () => {
      order.push('first in');
      // Were both names to share one lock, this would wait for the outer holder forever (until its timeout).
      await withFileLock(
        localFileSystem,
        path.join(workspace.workDir, second),
        async () => order.push('second in'),
        {
          timeoutMs: 200,
        },
      );
      order.push('first out');
    });
    expect(order).toEqual(['first in', 'second in', 'first out']);
  });
});
