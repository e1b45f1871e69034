import type { FileSystem } from '@kimi-tools/core/fs';
import { describe, it } from 'vitest';
import {
  readThrough,
  writeThrough,
  type CaseContext,
  type ConformanceCase,
  type ConformanceFeature,
} from './conformance-case.js';
import { execCases } from './exec-cases.js';
import { linkCases } from './link-cases.js';
import { metadataCases } from './metadata-cases.js';
import { openCases } from './open-cases.js';
import { statCases } from './stat-cases.js';
import { treeCases } from './tree-cases.js';

/** A backend ready for one case: an empty directory on it, and how to remove that directory afterwards. */
export interface FileSystemUnderTest {
  readonly fs: FileSystem;
  /** An empty directory on the backend, by its canonical path (`fs.realpath(root)` is `root`). */
  readonly root: string;
  /**
   * Makes a FIFO (a named pipe) at `path`, which the interface itself cannot do. Give it where the backend has FIFOs;
   * otherwise declare `lacks.fifo` with the reason.
   */
  mkfifo?(path: string): Promise<void>;
  /** Removes the directory and whatever the case left in it. */
  cleanup(): Promise<void>;
}

/** Options of {@link describeFileSystemConformance}. */
export interface FileSystemConformanceOptions {
  /** Features the backend does not have, each with the reason, shown in the name of every case it skips. */
  lacks?: Partial<Record<ConformanceFeature, string>>;
}

/** Every case of the suite, by the part of the interface it pins. */
const GROUPS: ReadonlyArray<readonly [string, readonly ConformanceCase[]]> = [
  ['stats', statCases],
  ['symbolic and hard links', linkCases],
  ['open, create, read and write', openCases],
  ['directories, rename and unlink', treeCases],
  ['modes and times', metadataCases],
  ['exec', execCases],
];

/**
 * Registers, as vitest tests, every promise of the `FileSystem` interface (docs/file-systems.md), checked against a
 * backend. `setup` is called once per case and gives a fresh empty directory on the backend; its `cleanup` runs when
 * the case ends, passed or failed. Cases that need a capability the backend says it lacks are skipped with that
 * reason; a field the capabilities promise must be there, and one they deny must be absent.
 *
 * ```ts
 * describeFileSystemConformance('memory', async () => {
 *   const fs = memoryFileSystem();
 *   await fs.mkdir('/conformance');
 *   return { fs, root: '/conformance', cleanup: async () => {} };
 * }, { lacks: { fifo: 'a workspace in memory holds no special files' } });
 * ```
 */
export function describeFileSystemConformance(
  name: string,
  setup: () => Promise<FileSystemUnderTest>,
  options: FileSystemConformanceOptions = {},
): void {
  describe(`FileSystem conformance: ${name}`, () => {
    for (const [group, cases] of GROUPS) {
      describe(group, () => {
        for (const conformanceCase of cases) registerCase(conformanceCase, setup, options);
      });
    }
  });
}

function registerCase(
  conformanceCase: ConformanceCase,
  setup: () => Promise<FileSystemUnderTest>,
  options: FileSystemConformanceOptions,
): void {
  const lacking = conformanceCase.needs && options.lacks?.[conformanceCase.needs];
  if (lacking !== undefined) {
    it.skip(`${conformanceCase.name} (the backend lacks ${conformanceCase.needs}: ${lacking})`, () => {});
    return;
  }
  it(conformanceCase.name, async ({ skip }) => {
    const backend = await setup();
    try {
      if (conformanceCase.needs === 'fifo' && !backend.mkfifo) {
        throw new Error('the backend gives no mkfifo: give one, or declare `lacks: { fifo: reason }`');
      }
      await conformanceCase.run(caseContext(backend, skip));
    } finally {
      await backend.cleanup();
    }
  });
}

function caseContext(backend: FileSystemUnderTest, skip: (note: string) => never): CaseContext {
  const { fs, root } = backend;
  const at = (relative: string) => `${root}/${relative}`;
  return {
    fs,
    root,
    at,
    write: async (relative, content, mode) => {
      await writeThrough(fs, at(relative), content, mode);
      return at(relative);
    },
    read: (path) => readThrough(fs, path),
    mkfifo: async (path) => {
      if (!backend.mkfifo) throw new Error('this case does not need a FIFO');
      await backend.mkfifo(path);
    },
    skip,
  };
}
