import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * Creates the temporary directories of a session: `project/` (a copy of the sample, unless `workDir` is given)
 * and `outside/`. Paths are real paths, so they read the same as the paths the tools report.
 */
export async function prepareWorkspace(workDir?: string): Promise<Workspace> {
  const tempRoot = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-playground-')));
  const outsideDir = path.join(tempRoot, 'outside');
  await fs.mkdir(outsideDir);
  let projectDir: string;
  if (workDir === undefined) {
    projectDir = path.join(tempRoot, 'project');
    await fs.cp(SAMPLE_DIR, projectDir, { recursive: true });
  } else {
    projectDir = await fs.realpath(workDir);
  }
  return {
    workDir: projectDir,
    outsideDir,
    tempRoot,
    isSampleCopy: workDir === undefined,
    cleanup: () => fs.rm(tempRoot, { recursive: true, force: true }),
  };
}

/** Shows a path relative to the work dir when it is inside it, else as it is. */
export function pathShower(workDir: string): (realPath: string) => string {
  return (realPath) => {
    const relative = path.relative(workDir, realPath);
    if (relative === '') return '.';
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
      return realPath;
    return relative.split(path.sep).join('/');
  };
}
