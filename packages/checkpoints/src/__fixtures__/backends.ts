import { createRuntime, type FileSystem, type ToolRuntime } from '@kimi-tools/core';
import { localFileSystem, memoryFileSystem } from '@kimi-tools/core/fs';
import { applyFileChange, decodeText, readHandleUpTo } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, recordingApproval } from '@kimi-tools/test-kit';
import { afterEach, beforeEach, describe } from 'vitest';

/** A workspace on one backend, with plain file operations through its `FileSystem` (what a shell would do). */
export interface BackendWorkspace {
  fs: FileSystem;
  root: string;
  /** The store's directory, on the local disk whatever the backend. */
  storeDir: string;
  runtime: ToolRuntime;
  cleanup(): Promise<void>;
}

export type BackendName = 'local' | 'memory';

/** The local disk and the in-memory backend, each with a fresh workspace and store. */
export const BACKENDS: Record<BackendName, () => Promise<BackendWorkspace>> = {
  async local() {
    const workspace = await createTempWorkspace();
    const runtime = createRuntime({
      workDir: workspace.workDir,
      approval: recordingApproval(),
      readBeforeWrite: false,
    });
    return {
      fs: localFileSystem,
      root: workspace.workDir,
      storeDir: workspace.outside('store'),
      runtime,
      cleanup: () => workspace.cleanup(),
    };
  },
  async memory() {
    const store = await createTempWorkspace();
    const fs = memoryFileSystem();
    await fs.mkdir('/work');
    const runtime = createRuntime({
      workDir: '/work',
      approval: recordingApproval(),
      readBeforeWrite: false,
      fs,
    });
    return { fs, root: '/work', storeDir: store.outside('store'), runtime, cleanup: () => store.cleanup() };
  },
};

/** What a suite of {@link describeOnEachBackend} is given. */
export interface BackendSuite {
  backend: BackendName;
  /** The workspace of the test that runs: a fresh one for each test, cleaned up after it. */
  space: BackendWorkspace;
  /** `relative` in the workspace of the test that runs. */
  at(relative: string): string;
  /**
   * A runtime of that workspace, as the workspace's own is made (recording approval, no read state), whose tools go
   * through `fs`: the backend with a fault or a pause put in.
   */
  runtimeOver(fs: FileSystem): ToolRuntime;
}

/**
 * Runs `suite` once per backend of `backends` (`title` names it with `%s`), each of its tests in a fresh workspace of
 * that backend, so that no suite repeats how a workspace is made and cleaned up.
 */
export function describeOnEachBackend(
  title: string,
  suite: (context: BackendSuite) => void,
  backends: readonly BackendName[] = ['local', 'memory'],
): void {
  describe.each(backends)(title, (backend) => {
    let current: BackendWorkspace | undefined;
    const running = (): BackendWorkspace => {
      if (current === undefined) throw new Error('a workspace is made for each test: use it inside one');
      return current;
    };
    const space: BackendWorkspace = {
      get fs() {
        return running().fs;
      },
      get root() {
        return running().root;
      },
      get storeDir() {
        return running().storeDir;
      },
      get runtime() {
        return running().runtime;
      },
      cleanup: () => running().cleanup(),
    };
    beforeEach(async () => {
      current = await BACKENDS[backend]();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });
    suite({
      backend,
      space,
      at: (relative) => `${running().root}/${relative}`,
      runtimeOver: (fs) =>
        createRuntime({ workDir: running().root, approval: recordingApproval(), readBeforeWrite: false, fs }),
    });
  });
}

/** Writes `content` at `path` the way a program would: in place when it exists, parents made. */
export async function put(
  fs: FileSystem,
  path: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<void> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
  const exists = await fs.lstat(path).then(
    () => true,
    () => false,
  );
  const file = exists ? await fs.open(path, 'update') : await fs.create(path, mode ?? 0o644);
  try {
    for (let at = 0; at < bytes.length;)
      at += (await file.write(bytes, at, bytes.length - at, at)).bytesWritten;
    await file.truncate(bytes.length);
    if (mode !== undefined) await file.chmod(mode);
  } finally {
    await file.close();
  }
}

/** Reads a whole file. */
export async function bytesAt(fs: FileSystem, path: string): Promise<Buffer> {
  const file = await fs.open(path, 'read');
  try {
    return await readHandleUpTo(file, Number.MAX_SAFE_INTEGER, (await file.stat()).size + 1);
  } finally {
    await file.close();
  }
}

/**
 * Writes a file as the write tools do (approval, lock, atomic write, observers told), with text `content`. Core's
 * write path still takes its lock files on the local disk, so on another backend the file is written through the
 * backend and the runtime's observers are told of it, as a tool tells them after its write.
 */
export async function agentWrite(runtime: ToolRuntime, input: string, content: string): Promise<void> {
  const resolved = await runtime.paths.resolveFile(input, 'write');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const old = await bytesAt(runtime.fs, resolved.path.real).catch(() => null);
  if (runtime.fs.name !== 'local') {
    await put(runtime.fs, resolved.path.real, content);
    const change = {
      sender: 'WriteFile',
      path: resolved.path,
      oldBytes: old,
      newBytes: Buffer.from(content),
    };
    await runtime.changeObservers.notify({ ...change, signal: undefined });
    return;
  }
  const decoded = old ? decodeText(old) : null;
  const outcome = await applyFileChange(runtime, {
    sender: 'WriteFile',
    verb: 'Write',
    path: resolved.path,
    oldBytes: old,
    newBytes: Buffer.from(content),
    oldText: decoded?.ok ? decoded.decoded.text : '',
    newText: content,
    checkReadState: false,
  });
  if (outcome.kind !== 'written') throw new Error(`the write was not made: ${outcome.kind}`);
}

/** Everything under `root` (but `.git`): files with their bytes (hex) and mode, links with their targets, directories. */
export async function snapshot(fs: FileSystem, root: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  const visit = async (directory: string, relative: string): Promise<void> => {
    for (const entry of await fs.readdir(directory)) {
      if (entry.name === '.git') continue;
      const path = `${directory}/${entry.name}`;
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const stats = await fs.lstat(path);
      if (entry.isSymbolicLink()) tree[name] = `link -> ${await fs.readlink(path)}`;
      else if (entry.isDirectory()) {
        tree[name] = `dir ${(stats.mode & 0o7777).toString(8)}`;
        await visit(path, name);
      } else
        tree[name] = `file ${(stats.mode & 0o7777).toString(8)} ${(await bytesAt(fs, path)).toString('hex')}`;
    }
  };
  await visit(root, '');
  return tree;
}
