import { createRuntime, yoloApproval, type ToolRuntime } from '@kimi-tools/core';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import {
  createTempWorkspace,
  SFTP_CAPABILITIES,
  translatedRuntime,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { ReadFile } from '@kimi-tools/read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutTree, SEARCH_TREE } from '../__fixtures__/backend-tree.js';
import { Grep } from './grep.js';
import type { GrepParams } from './grep-params.js';

// The portable search answers as ripgrep does: on the local disk without ripgrep, on the memory backend, and on
// files reached only through the runtime's file system (no `exec`).
let local: TempWorkspace;
let memory: ToolRuntime;

beforeAll(async () => {
  local = await createTempWorkspace();
  await layOutTree(localFileSystem, local.workDir, SEARCH_TREE);
  const fs = memoryFileSystem();
  await layOutTree(fs, '/work', SEARCH_TREE);
  memory = createRuntime({ workDir: '/work', approval: yoloApproval(), fs });
});

afterAll(() => local.cleanup());

/** Calls of every mode and option the two searches must answer alike. */
const GREP_CALLS: ReadonlyArray<Partial<GrepParams> & { pattern: string }> = [
  { pattern: 'zebra' },
  { pattern: 'zebra', output_mode: 'content' },
  { pattern: 'zebra', output_mode: 'count_matches' },
  { pattern: 'zebra', output_mode: 'content', '-C': 1 },
  { pattern: 'zebra', output_mode: 'content', '-B': 2, '-A': 0, path: 'src' },
  { pattern: 'zebra', output_mode: 'content', '-n': false, glob: '*.ts' },
  { pattern: 'ZEBRA', '-i': true, output_mode: 'count_matches' },
  { pattern: 'zebra', glob: '**/*.{ts,tsx}' },
  { pattern: 'zebra', glob: '!src/**' },
  { pattern: 'zebra', type: 'ts' },
  { pattern: 'zebra', include_ignored: true },
  { pattern: 'zebra', path: 'src/a.ts', output_mode: 'content' },
  { pattern: 'zebra', path: 'bin.dat', output_mode: 'count_matches' },
  { pattern: '\\bzebra\\b', output_mode: 'count_matches' },
  { pattern: '^zebra', output_mode: 'content' },
  { pattern: 'zebra$', output_mode: 'content' },
  { pattern: 'a\\.$|^#\\s+\\w+', output_mode: 'content' },
  { pattern: '(?i)z[aeiou]*bra\\b', output_mode: 'content', head_limit: 3, offset: 2 },
  { pattern: '\\p{Emoji_Presentation}|\\u{E9}t', output_mode: 'content' },
  { pattern: 'alpha\\(\\) \\{\\n\\s+return', multiline: true, output_mode: 'content' },
  { pattern: 'zebra.*\\n.*two', multiline: true, output_mode: 'count_matches' },
  { pattern: 'x{2999}zebra', output_mode: 'content' },
  { pattern: 'nothing here' },
];

function portable(runtime: ToolRuntime): Grep {
  return new Grep(runtime, { rgPath: '/nonexistent/rg' });
}

describe('the portable search', () => {
  it('answers on the local disk exactly as ripgrep does', async () => {
    const tool = portable(local.runtime());
    for (const call of GREP_CALLS) {
      const expected = await new Grep(local.runtime()).call(call);
      expect(expected.extras, JSON.stringify(call)).toMatchObject({ search: 'ripgrep' });
      expect(await tool.call(call), JSON.stringify(call)).toEqual({
        ...expected,
        extras: { ...expected.extras, search: 'portable' },
      });
    }
  });

  it('answers on the memory backend exactly as ripgrep does on the local disk', async () => {
    const tool = new Grep(memory);
    for (const call of GREP_CALLS) {
      const expected = await new Grep(local.runtime()).call(call);
      expect(await tool.call(call), JSON.stringify(call)).toEqual({
        ...expected,
        extras: { ...expected.extras, search: 'portable' },
      });
    }
  });

  it('shows names that read back with ReadFile on the memory backend', async () => {
    const listed = await new Grep(memory).call({ pattern: 'zebra', include_ignored: true });
    const names = String(listed.output).split('\n');
    expect(names).toContain('"odd\\tname.txt"');
    for (const name of names) {
      const read = await new ReadFile(memory).call({ path: name });
      expect(read.isError, `${name}: ${read.message}`).toBe(false);
      expect(read.output, name).toMatch(/^ +1\t/);
    }
  });

  it('reads only through the runtime’s file system where it runs no programs', async () => {
    const { runtime, files } = translatedRuntime(local, {
      capabilities: { ...SFTP_CAPABILITIES, exec: false },
    });
    const call = { pattern: 'zebra', output_mode: 'content' } as const;
    const expected = await new Grep(local.runtime()).call(call);
    expect(await new Grep(runtime).call(call)).toEqual({
      ...expected,
      extras: { ...expected.extras, search: 'portable' },
    });
    expect(files.operations).toContain('open /virtual/work/src/a.ts');
  });
});
