import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, yoloApproval, type RuntimeOptions, type ToolRuntime } from '@kimi-tools/core';

/** A file to create: text, or raw bytes (CRLF, legacy encodings). */
export type FileContent = string | Uint8Array;

/** A temporary directory removed by {@link TempTree.cleanUp}. */
export interface TempTree {
  /** Real path of the directory. */
  root: string;
  /** Absolute path of a `/`-separated relative path. */
  at(relative: string): string;
  write(relative: string, content?: FileContent): Promise<void>;
  writeAll(files: Record<string, FileContent>): Promise<void>;
  link(relative: string, target: string): Promise<void>;
  /** Sets a file's modification time, in seconds since the epoch. */
  touch(relative: string, seconds: number): Promise<void>;
  /** Makes the directory a git repository (`git init`). */
  gitInit(): void;
  runtime(options?: Partial<RuntimeOptions>): ToolRuntime;
  cleanUp(): Promise<void>;
}

/** Creates an empty temporary directory under the OS temp dir. */
export async function createTempTree(prefix = 'kimi-search-'): Promise<TempTree> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const at = (relative: string) => path.join(root, ...relative.split('/'));
  const write = async (relative: string, content: FileContent = '') => {
    await mkdir(path.dirname(at(relative)), { recursive: true });
    await writeFile(at(relative), content);
  };
  return {
    root,
    at,
    write,
    async writeAll(files) {
      for (const [relative, content] of Object.entries(files)) await write(relative, content);
    },
    async link(relative, target) {
      await mkdir(path.dirname(at(relative)), { recursive: true });
      await symlink(target, at(relative));
    },
    async touch(relative, seconds) {
      await utimes(at(relative), seconds, seconds);
    },
    gitInit() {
      execFileSync('git', ['init', '-q', root], { stdio: 'ignore' });
    },
    runtime(options = {}) {
      return createRuntime({ workDir: root, approval: yoloApproval(), ...options });
    },
    async cleanUp() {
      await rm(root, { recursive: true, force: true });
    },
  };
}
