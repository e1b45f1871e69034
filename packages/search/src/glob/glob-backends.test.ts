import { createRuntime, yoloApproval, type ToolRuntime } from '@kimi-tools/core';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import {
  createTempWorkspace,
  SFTP_CAPABILITIES,
  translatedRuntime,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutTree, SEARCH_TREE } from '../__fixtures__/backend-tree.js';
import { Glob } from './glob.js';
import type { GlobParams } from './glob-params.js';

// Glob walks the runtime's file system: on the memory backend, and on the local files seen at another path (a tool
// that touched the disk directly would find nothing there), it answers exactly as on the local disk.
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

const CALLS: ReadonlyArray<Partial<GlobParams> & { pattern: string }> = [
  { pattern: '**/*.ts' },
  { pattern: '**/*.ts', include_dirs: false },
  { pattern: '**' },
  { pattern: '**', include_ignored: true },
  { pattern: '*' },
  { pattern: 'src/**' },
  { pattern: '**/*.{ts,tsx}', directory: 'src' },
  { pattern: '**/*.log' },
  { pattern: 'linked-dir/*' },
];

describe('Glob on other backends', () => {
  it('answers on the memory backend exactly as on the local disk', async () => {
    for (const call of CALLS) {
      const expected = await new Glob(local.runtime()).call(call);
      expect(expected.isError, JSON.stringify(call)).toBe(false);
      expect(await new Glob(memory).call(call), JSON.stringify(call)).toEqual(expected);
    }
  });

  it('walks only through the runtime’s file system (the files seen at another path, as over SFTP)', async () => {
    const { runtime, files } = translatedRuntime(local, { capabilities: SFTP_CAPABILITIES });
    for (const call of CALLS) {
      const expected = await new Glob(local.runtime()).call(call);
      expect(await new Glob(runtime).call(call), JSON.stringify(call)).toEqual(expected);
    }
    expect(files.operations).toContain('readdir /virtual/work/src');
  });
});
