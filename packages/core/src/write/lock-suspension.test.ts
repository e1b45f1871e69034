import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextLine, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { FileSystem } from '../fs/file-system.js';
import { FileHistory, type HistoryEntry } from '../state/file-history.js';
import { appendThroughChange } from './__fixtures__/append-change.js';
import type { ApplyOutcome } from './apply-file-change.js';
import { withFileLock } from './file-lock.js';
import { lockFilePath } from './lock-file-name.js';
import { localFileSystem } from '../fs/local-file-system.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../../node_modules/.bin/tsx');
const WRITER = path.join(here, '__fixtures__/suspended-writer.mts');

/** The kit's test, with `append`: appends `addition` to `file` on a runtime of its own (another agent). */
const it = test.extend(
  'append',
  ({ workspace }) =>
    (file: string, addition: string, history?: FileHistory): Promise<ApplyOutcome> =>
      appendThroughChange(workspace.runtime(history ? { history } : {}), file, addition),
);

describe('a writer whose lock was broken while it was suspended', () => {
  it('refuses to write instead of undoing the edit made meanwhile (a real SIGSTOP)', async ({
    workspace,
    append,
  }) => {
    const file = await workspace.write('notes.txt', 'base\n');
    const child = spawn(tsx, [WRITER, file, workspace.workDir, 'suspended\n'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      expect(await nextLine(child, 'the writer')).toBe('in-lock');
      child.kill('SIGSTOP');
      // Stopped, the writer cannot keep its lock fresh; dating the lock back stands in for waiting out the 30 s.
      const longAgo = new Date(Date.now() - 120_000);
      await fs.utimes(lockFilePath(file), longAgo, longAgo);
      expect((await append(file, 'meanwhile\n')).kind).toBe('written');
      const outcome = nextLine(child, 'the writer');
      child.kill('SIGCONT');
      child.stdin?.write('go\n');
      expect(await outcome).toBe('refused File modified');
    } finally {
      child.kill('SIGKILL');
    }
    expect(await fs.readFile(file, 'utf8')).toBe('base\nmeanwhile\n');
    expect(await fs.readdir(workspace.workDir)).toEqual(['notes.txt']);
  });

  it('refuses when its lock is gone or held by another writer right before it writes', async ({
    workspace,
    append,
  }) => {
    const file = workspace.at('notes.txt');
    for (const taker of ['gone', 'held'] as const) {
      await fs.writeFile(file, 'base\n');
      const lock = lockFilePath(file);
      // Inside the lock, right before the write: the lock is broken as stale, another writer edits the file and
      // either releases its own lock or still holds it.
      class BrokenMeanwhile extends FileHistory {
        override async save(
          files: FileSystem,
          realPath: string,
          bytes: Uint8Array | null,
        ): Promise<HistoryEntry | undefined> {
          await fs.unlink(lock);
          await fs.writeFile(file, 'base\ntheirs\n');
          if (taker === 'held') await fs.writeFile(lock, `${process.pid}\nanother-writer-token\n`);
          return super.save(files, realPath, bytes);
        }
      }
      const outcome = await append(file, 'mine\n', new BrokenMeanwhile());
      expect(outcome.kind === 'refused' && outcome.result.brief).toBe('File modified');
      expect(await fs.readFile(file, 'utf8')).toBe('base\ntheirs\n');
      if (taker === 'held') {
        expect(await fs.readFile(lock, 'utf8')).toBe(`${process.pid}\nanother-writer-token\n`);
        await fs.unlink(lock);
      }
      expect(await fs.readdir(workspace.workDir)).toEqual(['notes.txt']);
    }
  });
});

describe('a live lock holder', () => {
  it('keeps its lock fresh, so a holder that works longer than staleMs is never broken', async ({
    workspace,
  }) => {
    const file = workspace.at('a.txt');
    const events: string[] = [];
    const hold = (name: string) =>
      withFileLock(
        localFileSystem,
        file,
        async () => {
          events.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, name === 'first' ? 3_000 : 0));
          events.push(`${name} out`);
        },
        // Held twice as long as staleMs; refreshed every 500 ms, so only an event-loop stall of over a second (not
        // a loaded CI machine) could let the second holder break it.
        { staleMs: 1_500, timeoutMs: 20_000 },
      );
    const first = hold('first');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([first, hold('second')]);
    expect(events).toEqual(['first in', 'first out', 'second in', 'second out']);
  });
});
