import { randomBytes } from 'node:crypto';
import { promises as nodeFs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createRuntime,
  type Approval,
  type FileSystem,
  type RuntimeOptions,
  type ToolRuntime,
} from '@kimi-tools/core';
import { appendBytes, exists, readBytes, removeTree, writeBytes } from './backends/backend-files.js';
import type { TestBackendName } from './backends/backend-names.js';
import { testBackendName, testFileSystem } from './backends/test-backend.js';
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
  /**
   * The backend the workspace is on (default: the run's, `KIMI_TEST_FS`); `'local'` for a directory that must be on
   * the local disk whatever the run (a store of the host's own, a tree a child process reads).
   */
  backend?: TestBackendName;
}

/**
 * A temporary directory for one test, on the run's backend (`KIMI_TEST_FS`: the local disk, memory, or this machine
 * over a loopback SSH server): `root/work` is the work dir, `root/outside` an empty directory outside it, and
 * anything else under `root` is outside the work dir too. Every path is a canonical path (no symlinked temp dir), so
 * the paths tools report compare exactly. Every helper goes through {@link fs}, so a test that sets up and inspects
 * its files with them runs unchanged on every backend. Wherever a method takes a file, a relative path is under the
 * work dir and an absolute one is taken as it is.
 */
export interface TempWorkspace {
  /** The backend the workspace is on. */
  readonly backend: TestBackendName;
  /** Its file system: what the helpers and the runtimes of this workspace use. */
  readonly fs: FileSystem;
  /** The temporary directory holding everything, by its canonical path. */
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
   * Writes a file (a new one, or an existing one rewritten in place), creating its parent directories, and returns
   * its absolute path. With `readBy`, also records in that runtime a complete read of it, as ReadFile would (see
   * {@link markRead}).
   */
  write(file: string, content?: FileContent, options?: { readBy?: ToolRuntime }): Promise<string>;
  /** Appends to a file (`>>`): creates it when missing, its parent directory must exist. */
  append(file: string, content: FileContent): Promise<void>;
  /** Sets a file's length, cutting it or extending it with zeros (a sparse file, where the backend makes them). */
  truncate(file: string, length: number): Promise<void>;
  /** Writes every file of a map (path → content), in its order. */
  writeAll(files: Readonly<Record<string, FileContent>>): Promise<void>;
  /** Creates a directory and its parents, and returns its absolute path. */
  mkdir(dir: string): Promise<string>;
  /** Creates a symlink at `file` (and its parent directories) holding `target` as given; returns the link's path. */
  symlink(file: string, target: string): Promise<string>;
  /**
   * Gives the file `existing` a second name `file` (a hard link), as a program where the files are would: through
   * the backend, or, over SSH (SFTP makes none), on the disk of the host, which is this machine.
   */
  link(file: string, existing: string): Promise<string>;
  /** A file's bytes as an array of numbers, so a failed `toEqual` shows them one by one. */
  bytes(file: string): Promise<number[]>;
  /** A file's content as text (UTF-8). */
  read(file: string): Promise<string>;
  /** Whether anything (a dangling symlink too) is at the path. */
  exists(file: string): Promise<boolean>;
  /** The names in a directory, sorted. */
  list(dir?: string): Promise<string[]>;
  /** Removes a file, a link or a directory tree; nothing there is fine. */
  remove(file: string): Promise<void>;
  /** A new runtime on the work dir and {@link fs}: `createRuntime` defaults, {@link approval}, `options` on top. */
  runtime(options?: WorkspaceRuntimeOptions): ToolRuntime;
  /** Removes the whole temporary directory, whatever is in it. */
  cleanup(): Promise<void>;
}

/** Makes the workspace's root: a fresh directory by its canonical path, on the local disk or in memory. */
async function makeRoot(fs: FileSystem, backend: TestBackendName, parent: string): Promise<string> {
  // The SSH server runs on this machine: the workspace is a local directory, which it serves.
  if (backend !== 'memory')
    return nodeFs.realpath(await nodeFs.mkdtemp(path.join(parent, 'kimi-tools-test-')));
  await fs.mkdir(parent, { recursive: true });
  for (;;) {
    const root = path.posix.join(
      await fs.realpath(parent),
      `kimi-tools-test-${randomBytes(4).toString('hex')}`,
    );
    try {
      await fs.mkdir(root, { mode: 0o700 });
      return root;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Creates a {@link TempWorkspace}; the caller removes it with `cleanup()` (the `workspace` fixture does that itself). */
export async function createTempWorkspace({
  parent = os.tmpdir(),
  backend = testBackendName(),
}: TempWorkspaceOptions = {}): Promise<TempWorkspace> {
  const fs = await testFileSystem(backend);
  const root = await makeRoot(fs, backend, parent);
  const workDir = path.join(root, 'work');
  const outsideDir = path.join(root, 'outside');
  await fs.mkdir(workDir);
  await fs.mkdir(outsideDir);
  const approval = recordingApproval();
  const resolve = (file: string) => path.resolve(workDir, file);

  const write: TempWorkspace['write'] = async (file, content = '', { readBy } = {}) => {
    const target = resolve(file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await writeBytes(fs, target, typeof content === 'string' ? Buffer.from(content) : content);
    if (readBy) await markRead(readBy, target);
    return target;
  };

  return {
    backend,
    fs,
    root,
    workDir,
    outsideDir,
    approval,
    at: (relative) => path.join(workDir, relative),
    outside: (relative) => path.join(outsideDir, relative),
    write,
    append: (file, content) =>
      appendBytes(fs, resolve(file), typeof content === 'string' ? Buffer.from(content) : content),
    async truncate(file, length) {
      const handle = await fs.open(resolve(file), 'update');
      try {
        await handle.truncate(length);
      } finally {
        await handle.close();
      }
    },
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
    async link(file, existing) {
      const name = resolve(file);
      if (backend === 'ssh') await nodeFs.link(resolve(existing), name);
      else await fs.link(resolve(existing), name);
      return name;
    },
    bytes: async (file) => [...(await readBytes(fs, resolve(file)))],
    read: async (file) => (await readBytes(fs, resolve(file))).toString('utf8'),
    exists: (file) => exists(fs, resolve(file)),
    list: async (dir = '.') => (await fs.readdir(resolve(dir))).map((entry) => entry.name).sort(),
    remove: (file) => removeTree(fs, resolve(file)),
    runtime: (options = {}) =>
      createRuntime({ fs, ...options, approval: options.approval ?? approval, workDir }),
    // A local directory is removed at once by the local disk, whichever backend served it.
    cleanup: () =>
      backend === 'memory' ? removeTree(fs, root) : nodeFs.rm(root, { recursive: true, force: true }),
  };
}
