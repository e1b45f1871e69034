import { promises as fs } from 'node:fs';
import path from 'node:path';
import { cleanupStaleTempFiles, isAtomicTempName, isLockFileName } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, testSshServer, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';
import { sha256 } from '../support/tree-snapshot.js';
import { runAndKill, type CrashChildConfig } from './crash-harness.js';

// docs/reliability.md: "A crash or kill at any moment of a write leaves either the old or the new file, never a truncated or
// mixed one." A child process rewrites a multi-megabyte file in a loop through the real tools and is SIGKILLed at
// random moments; after every kill the file must hash to the version before or after the call in flight, and the
// only other entries may be the tools' own hidden temp and lock files, which core's cleanupStaleTempFiles
// recognises and removes. Every other round they are left in place, so the next child has to get past a dead
// writer's lock and temp file by itself.

const KILLS = iterations(12, 400, { overSsh: 6 });
const WRITE_VERSIONS = 4;
const MARKER_WIDTH = 8;
const MIB = 1024 * 1024;

let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace();
});
afterAll(async () => {
  await workspace.cleanup();
});

/** Distinct LF texts of 1, 1.5, 2 and 2.5 MiB, each line naming its version. */
function writeVersion(n: number): string {
  const target = MIB + (n * MIB) / 2;
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < target; i++) {
    const line = `version ${n} line ${i} ${'abcdefghij'.repeat((i + n) % 7)}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

/** A 2 MiB UTF-8 file with a BOM and CRLF breaks, holding one `counter=` marker in the middle. */
function replaceBase(): { bytes: Buffer; markerAt: number } {
  const half: string[] = [];
  for (let i = 0; i < 16_000; i++) half.push(`row ${i}: the quick brown fox — ünïcödé — jumps\r\n`);
  const text = `${half.join('')}<<counter=${'0'.repeat(MARKER_WIDTH)}>>\r\n${half.join('')}`;
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  return { bytes, markerAt: bytes.indexOf('counter=') + 'counter='.length };
}

interface KillFigures {
  kills: number;
  midCall: number;
  /** Kills after which the files of one call held different versions (each whole): allowed, counted. */
  mixedAcrossFiles: number;
  corrupted: number;
  tempLeftovers: number;
  lockLeftovers: number;
  cleaned: number;
  versionsReached: number;
  problems: string[];
}

/**
 * Kills the child `KILLS` times; `hashOf(file, v)` is the hash of version v of a file, `write(v)` puts version v of
 * every file on disk. After each kill every file must be whole at the version before or after the call in flight.
 */
async function killRepeatedly(
  config: Omit<CrashChildConfig, 'start'>,
  hashOf: (file: string, v: number) => string,
  write: (v: number) => Promise<void>,
): Promise<KillFigures> {
  const files = config.files ?? [config.file];
  const figures: KillFigures = {
    kills: 0,
    midCall: 0,
    mixedAcrossFiles: 0,
    corrupted: 0,
    tempLeftovers: 0,
    lockLeftovers: 0,
    cleaned: 0,
    versionsReached: 0,
    problems: [],
  };
  let current = 0;
  let cycleMs = 150;
  for (let round = 0; round < KILLS; round++) {
    // Anywhere from right after start-up to about two calls later.
    const delay = Math.random() * cycleMs * 2;
    const run = await runAndKill({ ...config, start: current, ssh: testSshServer() }, delay);
    figures.kills++;
    if (run.starts > 1) cycleMs = Math.min(2_000, Math.max(20, run.startSpanMs / (run.starts - 1)));
    // No call finished before the kill (a slow link): widen the window, or no kill would land after a new version.
    else if (run.lastDone === undefined) cycleMs = Math.min(2_000, cycleMs * 2);

    let valid: number[];
    if (run.lastStarted === undefined) valid = [current];
    else if (run.lastDone === run.lastStarted) valid = [run.lastStarted];
    else {
      figures.midCall++;
      valid = [run.lastStarted - 1, run.lastStarted];
    }
    const held: number[] = [];
    for (const file of files) {
      const actual = sha256(await fs.readFile(path.join(config.workDir, file)));
      const holds = valid.find((v) => hashOf(file, v) === actual);
      if (holds === undefined) {
        figures.corrupted++;
        figures.problems.push(`round ${round}: ${file} is none of versions ${valid.join(', ')}`);
      } else held.push(holds);
    }
    if (held.length < files.length || new Set(held).size > 1) {
      // A corrupted file, or files of one call left at different versions: put all of them at one version.
      if (held.length === files.length) figures.mixedAcrossFiles++;
      current = valid[valid.length - 1] ?? current;
      await write(current);
    } else {
      current = held[0] ?? current;
    }

    const others = (await fs.readdir(config.workDir)).filter((name) => !files.includes(name));
    const temps = others.filter(isAtomicTempName);
    const locks = others.filter(isLockFileName);
    const strangers = others.filter(
      (name) => !name.startsWith('.') || (!isAtomicTempName(name) && !isLockFileName(name)),
    );
    if (strangers.length > 0)
      figures.problems.push(`round ${round}: unexpected entries ${strangers.join(', ')}`);
    figures.tempLeftovers += temps.length;
    figures.lockLeftovers += locks.length;
    if (round % 2 === 1 || round === KILLS - 1) {
      // The child is dead, so nothing is in progress: every temp and lock file is stale.
      figures.cleaned += (
        await cleanupStaleTempFiles(workspace.fs, config.workDir, { olderThanMs: 0 })
      ).length;
      const left = (await fs.readdir(config.workDir)).filter((name) => !files.includes(name));
      if (left.length > 0) figures.problems.push(`round ${round}: left after cleanup ${left.join(', ')}`);
    }
  }
  figures.versionsReached = current;
  return figures;
}

describe('crash safety under SIGKILL', () => {
  it('WriteFile overwriting 1–2.5 MiB files leaves the old or the new version, never a mix', async () => {
    const workDir = path.join(workspace.root, 'write-work');
    const versionsDir = path.join(workspace.root, 'write-versions');
    await fs.mkdir(workDir);
    await fs.mkdir(versionsDir);
    const hashes: string[] = [];
    for (let n = 0; n < WRITE_VERSIONS; n++) {
      const text = writeVersion(n);
      hashes.push(sha256(text));
      await fs.writeFile(path.join(versionsDir, String(n)), text);
    }
    const file = 'big.log';
    const write = (v: number) =>
      fs.copyFile(path.join(versionsDir, String(v % WRITE_VERSIONS)), path.join(workDir, file));
    await write(0);

    const figures = await killRepeatedly(
      { workDir, file, mode: 'write', versionsDir, versions: WRITE_VERSIONS, markerWidth: MARKER_WIDTH },
      (_file, v) => hashes[v % WRITE_VERSIONS] ?? '',
      write,
    );
    const { problems, ...counts } = figures;
    report('crash WriteFile', counts);
    expect(problems).toEqual([]);
    expect(figures.corrupted).toBe(0);
    expect(figures.kills).toBe(KILLS);
    // The kills must really land inside calls, or this proves nothing.
    expect(figures.midCall).toBeGreaterThan(0);
    expect(await fs.readdir(workDir)).toEqual([file]);
  });

  it('StrReplaceFile on a 2 MiB BOM + CRLF file leaves the old or the new version, never a mix', async () => {
    const workDir = path.join(workspace.root, 'replace-work');
    await fs.mkdir(workDir);
    const { bytes, markerAt } = replaceBase();
    const versionBytes = (v: number) => {
      const copy = Buffer.from(bytes);
      copy.write(String(v).padStart(MARKER_WIDTH, '0'), markerAt, 'latin1');
      return copy;
    };
    const file = 'data.csv';
    const write = (v: number) => fs.writeFile(path.join(workDir, file), versionBytes(v));
    await write(0);

    const figures = await killRepeatedly(
      { workDir, file, mode: 'replace', versionsDir: '', versions: 0, markerWidth: MARKER_WIDTH },
      (_file, v) => sha256(versionBytes(v)),
      write,
    );
    const { problems, ...counts } = figures;
    report('crash StrReplaceFile', counts);
    expect(problems).toEqual([]);
    expect(figures.corrupted).toBe(0);
    expect(figures.kills).toBe(KILLS);
    expect(figures.midCall).toBeGreaterThan(0);
    expect(await fs.readdir(workDir)).toEqual([file]);
  });

  it('ApplyPatch across three 2 MiB files leaves each file old or new, never a mix within one', async () => {
    const workDir = path.join(workspace.root, 'patch-work');
    await fs.mkdir(workDir);
    const { bytes, markerAt } = replaceBase();
    const files = ['a.csv', 'b.csv', 'c.csv'];
    // Each file its own text (its name first), the same marker in the middle.
    const versionBytes = (file: string, v: number) => {
      const copy = Buffer.from(bytes);
      copy.write(String(v).padStart(MARKER_WIDTH, '0'), markerAt, 'latin1');
      copy.write(file, 3, 'latin1');
      return copy;
    };
    const write = async (v: number) => {
      for (const file of files) await fs.writeFile(path.join(workDir, file), versionBytes(file, v));
    };
    await write(0);

    const figures = await killRepeatedly(
      {
        workDir,
        file: files[0]!,
        files,
        mode: 'patch',
        versionsDir: '',
        versions: 0,
        markerWidth: MARKER_WIDTH,
      },
      (file, v) => sha256(versionBytes(file, v)),
      write,
    );
    const { problems, ...counts } = figures;
    report('crash ApplyPatch', counts);
    expect(problems).toEqual([]);
    expect(figures.corrupted).toBe(0);
    expect(figures.kills).toBe(KILLS);
    expect(figures.midCall).toBeGreaterThan(0);
    expect((await fs.readdir(workDir)).sort()).toEqual(files);
  });
});
