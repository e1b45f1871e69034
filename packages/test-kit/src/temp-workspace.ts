import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, type Approval, type RuntimeOptions, type ToolRuntime } from '@kimi-tools/core';
import { markRead } from './mark-read.js';
import { recordingApproval, type RecordingApproval } from './recording-approval.js';

/** What a test file holds: text (written as UTF-8) or exact bytes. */
export type FileContent = string | Uint8Array;

/** Options of {@link TempWorkspace.runtime}: those of `createRuntime` but the work dir, and an optional approval. */
export type WorkspaceRuntimeOptions = Partial<Omit<RuntimeOptions, 'workDir' | 'approval'>> & {
  /** The runtime's approval (default: the workspace's {@link TempWorkspace.approval}). */
  approval?: Approval;
};

/** Options of {@link createTempWorkspace}. */
export interface TempWorkspaceOptions {
  /** The directory to create the workspace in (default: the OS temp dir), e.g. a tmpfs. */
  parent?: string;
}

/**
 * A real temporary directory for one test: `root/work` is the work dir, `root/outside` an empty directory outside
 * it, and anything else under `root` is outside the work dir too. Every path is a real path (no symlinked temp dir),
 * so the paths tools report compare exactly. Wherever a method takes a file, a relative path is under the work dir and
 * an absolute one is taken as it is.
 */
export interface TempWorkspace {
  /** The temporary directory holding everything, by its real path. */
  readonly root: string;
  /** The work dir (`root/work`), empty at first. */
  readonly workDir: string;
  /** An empty directory outside the work dir (`root/outside`). */
  readonly outsideDir: string;
  /** The approval runtimes of this workspace get unless they are given one: records every request, approves. */
  readonly approval: RecordingApproval;
  /** Absolute path of a path relative to the work dir. */
  at(relative: string): string;
  /** Absolute path of a path relative to {@link outsideDir}. */
  outside(relative: string): string;
  /**
   * Writes a file, creating its parent directories, and returns its absolute path. With `readBy`, also records in
   * that runtime a complete read of it, as ReadFile would (see {@link markRead}).
   */
  write(file: string, content?: FileContent, options?: { readBy?: ToolRuntime }): Promise<string>;
  /** Writes every file of a map (path → content), in its order. */
  writeAll(files: Readonly<Record<string, FileContent>>): Promise<void>;
  /** Creates a directory and its parents, and returns its absolute path. */
  mkdir(dir: string): Promise<string>;
  /** Creates a symlink at `file` (and its parent directories) holding `target` as given; returns the link's path. */
  symlink(file: string, target: string): Promise<string>;
  /** A file's bytes as an array of numbers, so a failed `toEqual` shows them one by one. */
  bytes(file: string): Promise<number[]>;
  /** A new runtime on the work dir: `createRuntime` defaults, {@link approval}, and `options` on top. */
  runtime(options?: WorkspaceRuntimeOptions): ToolRuntime;
  /** Removes the whole temporary directory, whatever is in it. */
  cleanup(): Promise<void>;
}

/** Creates a {@link TempWorkspace}; the caller removes it with `cleanup()` (the `workspace` fixture does that itself). */
export async function createTempWorkspace({
  parent = os.tmpdir(),
}: TempWorkspaceOptions = {}): Promise<TempWorkspace> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(parent, 'kimi-tools-test-')));
  const workDir = path.join(root, 'work');
  const outsideDir = path.join(root, 'outside');
  await fs.mkdir(workDir);
  await fs.mkdir(outsideDir);
  const approval = recordingApproval();
  const resolve = (file: string) => path.resolve(workDir, file);

  const write: TempWorkspace['write'] = async (file, content = '', { readBy } = {}) => {
    const target = resolve(file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
    if (readBy) await markRead(readBy, target);
    return target;
  };

  return {
    root,
    workDir,
    outsideDir,
    approval,
    at: (relative) => path.join(workDir, relative),
    outside: (relative) => path.join(outsideDir, relative),
    write,
    async writeAll(files) {
      for (const [file, content] of Object.entries(files)) await write(file, content);
    },
    async mkdir(dir) {
      const target = resolve(dir);
      await fs.mkdir(target, { recursive: true });
      return target;
    },
    async symlink(file, target) {
      const link = resolve(file);
      await fs.mkdir(path.dirname(link), { recursive: true });
      await fs.symlink(target, link);
      return link;
    },
    bytes: async (file) => [...(await fs.readFile(resolve(file)))],
    runtime: (options = {}) => createRuntime({ ...options, approval: options.approval ?? approval, workDir }),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}
