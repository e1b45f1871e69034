import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { isAtomicTempName, isLockFileName } from '@kimi-tools/core/toolkit';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { createCheckpoints } from './index.js';
import { CheckpointStore } from './store/checkpoint-store.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const PROCESS = path.join(here, '__fixtures__/killed-process.ts');

interface KillAt {
  side: 'workspace' | 'store';
  op: string;
  nth: number;
}

/** Runs the killed process (see its header); resolves with how it ended. */
function runKilled(config: {
  workDir: string;
  storeDir: string;
  action: 'create' | 'rewind';
  id?: string;
  killAt: KillAt;
}): Promise<'killed' | 'done'> {
  return new Promise((resolve, reject) => {
    execFile(
      tsx,
      ['--conditions=@kimi-tools/source', PROCESS, JSON.stringify(config)],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error === null && stdout.startsWith('done ')) resolve('done');
        // tsx runs the script in a process of its own, and exits with 128 + 9 when that one is killed.
        else if (error?.signal === 'SIGKILL' || error?.code === 137) resolve('killed');
        else reject(new Error(`the process failed: ${error?.message}\n${stderr}`));
      },
    );
  });
}

/**
 * Every file under `root` with its content (a link as its target), the temp and lock files of an interrupted write left
 * out (the next writer of a file breaks the lock its dead holder left).
 */
async function files(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory() || isAtomicTempName(entry.name) || isLockFileName(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    found[path.relative(root, full)] = entry.isSymbolicLink()
      ? `-> ${await fs.readlink(full)}`
      : (await fs.readFile(full)).toString('hex');
  }
  return found;
}

/** The store is whole: every record's manifest and every content a manifest names read back, matching its hash. */
async function expectWholeStore(storeDir: string): Promise<void> {
  const store = new CheckpointStore(storeDir);
  for (const record of await store.list()) {
    const manifest = await store.manifestOf(record);
    for (const [, entry] of manifest.manifestEntries())
      if (entry.type === 'file') await store.objects.get(entry.hash);
  }
}

/** Writes a tree of `count` files, `name-<i>.txt`, in a few directories, with `version` in their content. */
async function writeTree(root: string, count: number, version: string): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const file = path.join(root, `dir-${i % 4}`, `file-${i}.txt`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `file ${i}, ${version}\n`.repeat(1 + i));
  }
}

describe('a process killed', () => {
  const checkpointKills: KillAt[] = [
    // While the scan reads the changed files, before anything is stored.
    { side: 'workspace', op: 'open', nth: 4 },
    // Before the pack of the new contents is renamed into place.
    { side: 'store', op: 'rename', nth: 1 },
    // Before the record is linked into place (the pack is there, flushed).
    { side: 'store', op: 'link', nth: 1 },
  ];

  test('during a checkpoint leaves the workspace untouched and the store whole; the next checkpoint is right', async ({
    workspace,
  }) => {
    const root = workspace.workDir;
    const storeDir = workspace.outside('store');
    const checkpoints = createCheckpoints(createRuntime({ workDir: root, approval: yoloApproval() }), {
      dir: storeDir,
    });
    await writeTree(root, 12, 'one');
    await checkpoints.create('one');
    const first = await files(root);
    for (const [round, killAt] of checkpointKills.entries()) {
      await writeTree(root, 12, `round ${round}`);
      await fs.rm(path.join(root, `dir-1/file-${round * 4 + 1}.txt`));
      const before = await files(root);
      expect(await runKilled({ workDir: root, storeDir, action: 'create', killAt })).toBe('killed');
      expect(await files(root)).toEqual(before);
      await expectWholeStore(storeDir);
      // The next checkpoint records the workspace as it is: nothing differs from it, and a rewind goes back.
      const next = await checkpoints.create(`after kill ${round}`);
      expect(await checkpoints.diff(next.id)).toEqual([]);
    }
    expect((await checkpoints.rewind('1')).kind).toBe('rewound');
    expect(await files(root)).toEqual(first);
  });

  const rewindKills: KillAt[] = [
    // While the lock files of the 13 paths it writes are taken.
    { side: 'workspace', op: 'create', nth: 3 },
    // While the temp files are written, its locks held.
    { side: 'workspace', op: 'create', nth: 13 + 3 },
    // Halfway through the renames.
    { side: 'workspace', op: 'rename', nth: 5 },
    // Before the record of the state after the rewind is linked.
    { side: 'store', op: 'link', nth: 1 },
  ];

  test('during a rewind leaves every file all old or all new and the store whole; a rewind again finishes it', async ({
    workspace,
  }) => {
    const root = workspace.workDir;
    const storeDir = workspace.outside('store');
    // A session of its own each round: in one, the files a rewind wrote and a plain write then changed are the user's.
    const session = () =>
      createCheckpoints(createRuntime({ workDir: root, approval: yoloApproval() }), { dir: storeDir });
    await writeTree(root, 12, 'old');
    const oldFiles = await files(root);
    await session().create('old');
    for (const [round, killAt] of rewindKills.entries()) {
      const checkpoints = session();
      await writeTree(root, 12, `new ${round}`);
      await fs.rm(path.join(root, 'dir-2/file-2.txt'));
      await fs.writeFile(path.join(root, 'dir-3/created.txt'), 'created\n');
      const newFiles = await files(root);
      await checkpoints.create(`new ${round}`);
      expect(await runKilled({ workDir: root, storeDir, action: 'rewind', id: '1', killAt })).toBe('killed');
      const now = await files(root);
      for (const name of new Set([...Object.keys(oldFiles), ...Object.keys(newFiles)])) {
        expect([oldFiles[name], newFiles[name]], name).toContain(now[name]);
      }
      await expectWholeStore(storeDir);
      const again = await checkpoints.rewind('1');
      expect(['rewound', 'unchanged'], JSON.stringify([round, again])).toContain(again.kind);
      expect(await files(root)).toEqual(oldFiles);
    }
  });
});
