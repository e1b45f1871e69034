import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { ToolReturnValue } from '@kimi-tools/core';
import { NotebookEdit } from '@kimi-tools/notebook';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { allTools, type Tools } from '../support/all-tools.js';
import { report } from '../support/report.js';

// docs/reliability.md: a path that is a socket, a device or a FIFO answers `is not a file` from every tool that takes
// a file (`is not a directory` from Glob's directory), never an errno (a socket gave `ENXIO: no such device or
// address`, issue 29) and never a wait. Doors and the other kinds Linux lacks are not tried.

/** Linux's major and minor numbers of a device number (glibc's `gnu_dev_major` / `gnu_dev_minor`). */
function deviceNumbers(rdev: number): [number, number] {
  return [Math.floor(rdev / 256) & 0xfff, (rdev & 0xff) | (Math.floor(rdev / 4096) & 0xfff00)];
}

/** The device numbers of the first block device in /dev, or why there is none to copy. */
function blockDevice(): [number, number] | string {
  let names: string[];
  try {
    names = readdirSync('/dev');
  } catch {
    return 'this machine has no /dev';
  }
  for (const name of names) {
    let stats: Stats;
    try {
      stats = lstatSync(path.join('/dev', name));
    } catch {
      continue;
    }
    if (stats.isBlockDevice()) return deviceNumbers(stats.rdev);
  }
  return 'this machine has no block device';
}

/**
 * Makes a device node at `target` with mknod (root only: the tests run as root in CI); a reason to skip when it
 * cannot. A node of an existing device: one of a device the kernel lacks would answer ENXIO to any open.
 */
function makeDevice(target: string, kind: 'c' | 'b'): string | undefined {
  const numbers = kind === 'c' ? deviceNumbers(statSync('/dev/null').rdev) : blockDevice();
  if (typeof numbers === 'string') return numbers;
  try {
    execFileSync('mknod', [target, kind, String(numbers[0]), String(numbers[1])], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mknod is not allowed here (it needs root)';
  }
}

interface Kind {
  name: string;
  /** Makes the special file; a reason when this machine cannot have one. */
  make(target: string, onCleanup: (close: () => Promise<void>) => void): Promise<string | undefined>;
  /** Whether lstat still sees this kind, so no tool replaced it. */
  is(stats: Stats): boolean;
}

const KINDS: Kind[] = [
  {
    name: 'socket',
    async make(target, onCleanup) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(target, resolve);
      });
      onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
      return undefined;
    },
    is: (stats) => stats.isSocket(),
  },
  {
    name: 'fifo',
    async make(target) {
      execFileSync('mkfifo', [target]);
      return undefined;
    },
    is: (stats) => stats.isFIFO(),
  },
  {
    name: 'character-device',
    make: async (target) => makeDevice(target, 'c'),
    is: (stats) => stats.isCharacterDevice(),
  },
  {
    name: 'block-device',
    make: async (target) => makeDevice(target, 'b'),
    is: (stats) => stats.isBlockDevice(),
  },
];

/** Every tool's call on `name`, with the answer its contract page gives for a path that is not a regular file. */
function callsOn(name: string): [string, Record<string, unknown>, string, string][] {
  const notAFile = `\`${name}\` is not a file.`;
  return [
    ['ReadFile', { path: name }, notAFile, 'Invalid path'],
    ['ReadMediaFile', { path: name }, notAFile, 'Invalid path'],
    ['WriteFile', { path: name, content: 'x\n' }, notAFile, 'Invalid path'],
    ['StrReplaceFile', { path: name, edit: { old: 'a', new: 'b' } }, notAFile, 'Invalid path'],
    ['NotebookEdit', { notebook_path: name, new_source: 'x' }, notAFile, 'Invalid path'],
    ['Grep', { pattern: 'x', path: name }, notAFile, 'Invalid path'],
    ['Glob', { pattern: '*', directory: name }, `\`${name}\` is not a directory.`, 'Invalid directory'],
  ];
}

describe.runIf(process.platform === 'linux')('special files of every kind, given to every tool', () => {
  for (const kind of KINDS) {
    test(`a ${kind.name} is not a file to any tool`, async ({ workspace, runtime, onTestFinished, skip }) => {
      const target = workspace.at(kind.name);
      const cleanups: (() => Promise<void>)[] = [];
      onTestFinished(async () => {
        for (const close of cleanups) await close();
      });
      const reason = await kind.make(target, (close) => cleanups.push(close));
      if (reason !== undefined) {
        report(`special file ${kind.name}`, { skipped: reason });
        skip(reason);
      }
      await workspace.write('plain.txt', 'x\n');
      const tools: Tools = { ...allTools(runtime), NotebookEdit: new NotebookEdit(runtime) };
      const answers: Record<string, Partial<ToolReturnValue>> = {};
      const expected: Record<string, Partial<ToolReturnValue>> = {};
      const calls = callsOn(kind.name);
      for (const [tool, args, message, brief] of calls) {
        const result = await tools[tool]!.call(args);
        answers[tool] = { isError: result.isError, message: result.message, brief: result.brief };
        expected[tool] = { isError: true, message, brief };
      }
      expect(answers).toEqual(expected);
      expect(kind.is(await lstat(target))).toBe(true);

      // Beside a regular file, in a search of the whole work dir: the search answers, and only the file matches.
      const grep = await tools['Grep']!.call({ pattern: 'x' });
      expect(grep).toMatchObject({ isError: false, output: 'plain.txt' });
      const glob = await tools['Glob']!.call({ pattern: '*.txt' });
      expect(glob).toMatchObject({ isError: false, output: 'plain.txt' });
      report(`special file ${kind.name}`, { calls: calls.length + 2 });
    });
  }
});
