import { promises as localFs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileSystem } from '@kimi-tools/core/fs';
import { shownPath } from '@kimi-tools/core/toolkit';
import { joinOn, makeTempDirectory, removeTree, writeNewFile } from './session-files.js';

/** The sample project the default session works on (copied, never edited in place). */
export const SAMPLE_DIR = fileURLToPath(new URL('../sample', import.meta.url));

/** Where a session runs. */
export interface Workspace {
  /** The runtime's work dir: a fresh copy of the sample, or the `--workdir` directory. */
  workDir: string;
  /** An empty directory outside the workspace (`{{outside}}` in scripts). */
  outsideDir: string;
  /** The temporary directory holding the sample copy and the outside directory. */
  tempRoot: string;
  /** Whether `workDir` is a copy of the sample project. */
  isSampleCopy: boolean;
  /** Removes the temporary directory (never the `--workdir` directory). */
  cleanup(): Promise<void>;
}

/**
 * Creates the temporary directories of a session on `fs`, in `tempParent`: `project/` (a copy of the sample, unless
 * `workDir` is given) and `outside/`. Paths are real paths, so they read the same as the paths the tools report.
 */
export async function prepareWorkspace(
  fs: FileSystem,
  tempParent: string,
  workDir?: string,
): Promise<Workspace> {
  const tempRoot = await makeTempDirectory(fs, tempParent, 'kimi-playground-');
  const outsideDir = joinOn(fs, tempRoot, 'outside');
  await fs.mkdir(outsideDir);
  let projectDir: string;
  if (workDir === undefined) {
    projectDir = joinOn(fs, tempRoot, 'project');
    await copyFromThisMachine(SAMPLE_DIR, fs, projectDir);
  } else {
    projectDir = await fs.realpath(workDir);
  }
  return {
    workDir: projectDir,
    outsideDir,
    tempRoot,
    isSampleCopy: workDir === undefined,
    cleanup: () => removeTree(fs, tempRoot),
  };
}

/** Copies the directory `source` of this machine to `target` on `fs` (which may be this machine's disk too). */
async function copyFromThisMachine(source: string, fs: FileSystem, target: string): Promise<void> {
  await fs.mkdir(target);
  for (const entry of await localFs.readdir(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = joinOn(fs, target, entry.name);
    if (entry.isDirectory()) await copyFromThisMachine(from, fs, to);
    else await writeNewFile(fs, to, await localFs.readFile(from), (await localFs.stat(from)).mode & 0o777);
  }
}

/** Shows a path relative to the work dir when it is inside it, else as it is. */
export function pathShower(workDir: string): (realPath: string) => string {
  return (realPath) => {
    const relative = path.relative(workDir, realPath);
    if (relative === '') return '.';
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
      return shownPath(realPath);
    return shownPath(relative.split(path.sep).join('/'));
  };
}
