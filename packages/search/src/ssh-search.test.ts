import { execFileSync } from 'node:child_process';
import { promises as nodeFs } from 'node:fs';
import { createRuntime, yoloApproval, type ToolRuntime } from '@kimi-tools/core';
import { localFileSystem } from '@kimi-tools/core/fs';
import { ReadFile } from '@kimi-tools/read';
import { sshFileSystem, type SshFileSystem } from '@kimi-tools/ssh';
import {
  createTempWorkspace,
  startSshServer,
  type SshServer,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutTree, SEARCH_TREE } from './__fixtures__/backend-tree.js';
import { expectShownPathsFoundAgain, QUOTED_NAMES } from './__fixtures__/shown-names.js';
import { Glob } from './glob/glob.js';
import { findRipgrep } from './grep/ripgrep-binary.js';
import { Grep } from './grep/grep.js';
import type { GrepParams } from './grep/grep-params.js';

// Glob and Grep on a workspace reached over SSH (a real OpenSSH server on this machine, one for the file): the same
// answers as on the local disk, with ripgrep run on the host and without it (the portable search over SFTP).
let server: SshServer;
let local: TempWorkspace;
let fs: SshFileSystem;
let remote: ToolRuntime;

beforeAll(async () => {
  [server, local] = await Promise.all([startSshServer(), createTempWorkspace()]);
  await layOutTree(localFileSystem, local.workDir, SEARCH_TREE);
  fs = await sshFileSystem({ ...sshOptions(), root: local.workDir });
  remote = createRuntime({ workDir: local.workDir, approval: yoloApproval(), fs });
});

function sshOptions() {
  return {
    host: server.host,
    port: server.port,
    username: server.username,
    privateKey: server.privateKey,
    hostKey: server.hostKeys[0]!.line,
  };
}

afterAll(async () => {
  await fs?.close();
  await Promise.all([server?.stop(), local?.cleanup()]);
});

const GREP_CALLS: ReadonlyArray<Partial<GrepParams> & { pattern: string }> = [
  { pattern: 'zebra' },
  { pattern: 'zebra', output_mode: 'content', '-C': 1 },
  { pattern: 'ZEBRA', '-i': true, output_mode: 'count_matches', glob: '**/*.{ts,tsx,md}' },
  { pattern: 'zebra', path: 'src/a.ts', output_mode: 'content' },
  { pattern: 'x{2999}zebra', output_mode: 'content' },
];

describe('search over SSH', () => {
  it('Glob answers as on the local disk', async () => {
    for (const pattern of ['**/*.ts', '**', 'src/**']) {
      const expected = await new Glob(local.runtime()).call({ pattern });
      expect(await new Glob(remote).call({ pattern }), pattern).toEqual(expected);
    }
  });

  it('Grep runs ripgrep on the host where it is there, and the portable search where it is not: the same answers', async () => {
    const onHost = await findRipgrep(undefined);
    expect(onHost).not.toBeNull();
    const withRipgrep = new Grep(remote, { rgPath: onHost as string });
    const without = new Grep(remote, { rgPath: '/nonexistent/bin/rg' });
    for (const call of GREP_CALLS) {
      const expected = await new Grep(local.runtime()).call(call);
      expect(expected.isError, JSON.stringify(call)).toBe(false);
      expect(await withRipgrep.call(call), JSON.stringify(call)).toEqual(expected);
      expect(await without.call(call), JSON.stringify(call)).toEqual({
        ...expected,
        extras: { ...expected.extras, search: 'portable' },
      });
    }
  });

  it(
    'Grep is not held up by a FIFO named .gitignore on the host, with ripgrep or without',
    { timeout: 40_000 },
    async () => {
      const tree = await createTempWorkspace();
      try {
        await tree.writeAll({ 'a.txt': 'zzz\n', 'sub/b.txt': 'zzz\n' });
        // The server runs on this machine: the FIFOs are made here and met over SSH.
        execFileSync('mkfifo', [tree.at('.gitignore'), tree.at('sub/.ignore')]);
        const fifoFs = await sshFileSystem({ ...sshOptions(), root: tree.workDir });
        try {
          const runtime = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: fifoFs });
          for (const rgPath of [(await findRipgrep(undefined)) as string, '/nonexistent/bin/rg']) {
            const result = await new Grep(runtime, { rgPath, timeoutMs: 15_000 }).call({
              pattern: 'zzz',
              output_mode: 'count_matches',
            });
            expect(result, rgPath).toMatchObject({ isError: false, output: 'a.txt:1\nsub/b.txt:1' });
            expect(result.message, rgPath).toBe('Found 2 total occurrences across 2 files.');
          }
        } finally {
          await fifoFs.close();
        }
      } finally {
        await tree.cleanup();
      }
    },
  );

  // docs/glob.md#matching: a path shown quoted, given back as a glob, found nothing.
  it('every path Glob shows, given back as a glob, finds that path alone, with ripgrep on the host and without', async () => {
    const tree = await createTempWorkspace();
    const files = await sshFileSystem({ ...sshOptions(), root: tree.workDir });
    try {
      await layOutTree(localFileSystem, tree.workDir, QUOTED_NAMES);
      const over = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: files });
      const rgPath = (await findRipgrep(undefined)) as string;
      const shown = await expectShownPathsFoundAgain(over, new Grep(over, { rgPath }));
      expect(shown).toContain('"a\\nb.txt"');
      await expectShownPathsFoundAgain(over, new Grep(over, { rgPath: '/nonexistent/bin/rg' }));
    } finally {
      await files.close();
      await tree.cleanup();
    }
  });

  it('every name Grep shows reads back with ReadFile over SSH', async () => {
    const listed = await new Grep(remote, { rgPath: '/nonexistent/bin/rg' }).call({ pattern: 'zebra' });
    const names = String(listed.output).split('\n');
    expect(names).toContain('"odd\\tname.txt"');
    for (const name of names) {
      const read = await new ReadFile(remote).call({ path: name });
      expect(read.isError, `${name}: ${read.message}`).toBe(false);
      expect(read.output, name).toMatch(/^ +1\t/);
    }
  });
});

// docs/paths.md#names-that-are-not-utf-8: over SSH the host's listing and ripgrep name a file whose name is not UTF-8
// by its byte escapes, so it is listed apart from the U+FFFD file; SFTP cannot carry such a path, which is refused.
describe('names that are not UTF-8 over SSH', () => {
  it('are listed apart from the U+FFFD file, as on the local disk, and refused when given back', async () => {
    const tree = await createTempWorkspace();
    const files = await sshFileSystem({ ...sshOptions(), root: tree.workDir });
    try {
      for (const [name, content] of [
        ['inv\xff.txt', 'zebra ff\n'],
        ['inv\xfe.txt', 'zebra fe\n'],
        ['inv\xef\xbf\xbd.txt', 'zebra replacement\n'],
      ]) {
        await nodeFs.writeFile(
          Buffer.concat([Buffer.from(`${tree.workDir}/`), Buffer.from(name!, 'latin1')]),
          content!,
        );
      }
      const over = createRuntime({ workDir: tree.workDir, approval: yoloApproval(), fs: files });
      const shown = ['"inv\\udcfe.txt"', '"inv\\udcff.txt"', 'inv\ufffd.txt'];
      expect((await new Glob(over).call({ pattern: '*.txt' })).output).toBe(shown.join('\n'));
      // Grep cannot stat them over SFTP, so it cannot tell they are no sensitive file: it leaves them out, and never
      // gives their lines to the U+FFFD file.
      const grep = await new Grep(over).call({ pattern: 'zebra', output_mode: 'content' });
      expect(grep.output).toBe('inv\ufffd.txt:1:zebra replacement');
      expect(await new ReadFile(over).call({ path: '"inv\\udcff.txt"' })).toMatchObject({
        message: '`"inv\\udcff.txt"` is not a valid path.',
        brief: 'Invalid path',
      });
      expect((await new ReadFile(over).call({ path: 'inv\ufffd.txt' })).output).toBe(
        '     1\tzebra replacement\n',
      );
      // The host's listing names them by their escapes: Glob finds each again by the name it shows.
      expect(await expectShownPathsFoundAgain(over)).toEqual(shown);
    } finally {
      await files.close();
      await tree.cleanup();
    }
  });
});
