import type { DiffDisplayBlock, ToolRuntime } from '@kimi-tools/core';
import { defineRuntimeSlot, isWithinDirectory, readHandleUpTo } from '@kimi-tools/core/toolkit';
import { fileDiff, type EntryBytes, type FileDiff } from './file-diffs.js';
import { resolveOptions, type CheckpointsOptions, type ResolvedCheckpointsOptions } from './options.js';
import { AgentWrites } from './rewind/agent-writes.js';
import { commitRewind } from './rewind/commit-rewind.js';
import { planRewind, type RewindPlan } from './rewind/plan-rewind.js';
import type { Checkpoint, Resolution, RewindOptions, RewindResult } from './rewind/rewind-types.js';
import { fileChanges, type FileChange } from './scan/changes.js';
import type { Manifest, ManifestEntry } from './scan/manifest.js';
import { scanWorkspace } from './scan/scan-workspace.js';
import { CheckpointStore, type CheckpointRecord } from './store/checkpoint-store.js';

/** Why a checkpoint id is refused: `There is no checkpoint {id}.` */
export class CheckpointNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`There is no checkpoint ${id}.`);
    this.name = 'CheckpointNotFoundError';
  }
}

/** A path given to `rewind` that is not in the workspace. */
export class PathOutsideWorkspaceError extends Error {
  constructor(readonly path: string) {
    super(`${path} is not in the workspace; a rewind only restores files of the workspace.`);
    this.name = 'PathOutsideWorkspaceError';
  }
}

/** The runtime's checkpoints, made by {@link createCheckpoints} or, on first use by a tool, with the defaults. */
const CHECKPOINTS = defineRuntimeSlot('checkpoints', () => ({ value: undefined as Checkpoints | undefined }));

/**
 * The checkpoints of one runtime's workspace (docs/checkpoints.md). `create` records the workspace (every file the
 * ignore rules keep, whoever changed it), `list` and `diff` show them, `rewind` takes files back to one of them and
 * never overwrites what the user changed after the agent unless told how.
 */
export class Checkpoints {
  /** The store's directory on the local disk. */
  readonly directory: string;
  private readonly store: CheckpointStore;
  private readonly agentWrites = new AgentWrites();
  private rootPath: string | undefined;

  /** Use {@link createCheckpoints} or {@link checkpointsOf}. */
  constructor(
    private readonly runtime: ToolRuntime,
    private readonly options: ResolvedCheckpointsOptions,
  ) {
    this.directory = options.dir;
    this.store = new CheckpointStore(options.dir);
    runtime.changeObservers.add(this.agentWrites);
  }

  /** Records the workspace now as a new checkpoint, and prunes the oldest beyond the limits. */
  async create(label?: string): Promise<Checkpoint> {
    return this.store.locked(async () => this.record(label));
  }

  /** Every checkpoint kept, oldest first. */
  async list(): Promise<Checkpoint[]> {
    return (await this.store.list()).map(publicOf);
  }

  /** The files that differ from checkpoint `fromId` to `toId` (default `'now'`: the workspace as it is), with diffs. */
  async diff(fromId: string, toId: string = 'now'): Promise<FileDiff[]> {
    const from = await this.recordOf(fromId);
    const fromManifest = await this.store.manifestOf(from);
    let toManifest: Manifest;
    let toBytes: EntryBytes;
    if (toId === 'now') {
      toManifest = await this.scanNow(false);
      toBytes = (path) => this.workspaceBytes(path);
    } else {
      toManifest = await this.store.manifestOf(await this.recordOf(toId));
      toBytes = this.storeBytes;
    }
    const root = await this.root();
    const diffs: FileDiff[] = [];
    for (const change of fileChanges(fromManifest.entries, toManifest.entries)) {
      diffs.push(
        await fileDiff(
          this.runtime,
          root,
          change,
          { entry: fromManifest.entries[change.from ?? change.path], bytesOf: this.storeBytes },
          { entry: toManifest.entries[change.path], bytesOf: toBytes },
        ),
      );
    }
    return diffs;
  }

  /**
   * Takes the workspace (or `paths` of it) back to checkpoint `id`: every file changed since is restored, removed
   * or recreated, all in one commit. A file the user changed after the agent's last write is left as it is unless
   * `resolve` says `take` or `merge`; without a resolution for one, nothing is written and the result lists them. The
   * state before and the state after the rewind are checkpoints themselves.
   */
  async rewind(id: string, options: RewindOptions = {}): Promise<RewindResult> {
    const selected = await this.selection(options.paths);
    const planned = await this.plan(id, selected, options, false);
    if (planned.plan.blocked.length > 0) return { kind: 'blocked', files: planned.plan.blocked };
    if (planned.plan.restore.length === 0 && planned.plan.merge.length === 0) {
      return planned.plan.makeDirectories.length + planned.plan.removeDirectories.length === 0
        ? { kind: 'unchanged', leftAlone: planned.plan.leftAlone }
        : this.locked(id, selected, options, planned.key);
    }
    if (options.approve) {
      const preview = {
        checkpoint: publicOf(planned.record),
        restore: planned.changes,
        merge: planned.plan.merge.map((merged) => merged.path),
        display: await this.previewBlocks(planned),
      };
      if (!(await options.approve(preview))) return { kind: 'refused' };
    }
    return this.locked(id, selected, options, planned.key);
  }

  /** The rewind itself, under the store's lock: the plan made again (it must not have changed), then the commit. */
  private async locked(
    id: string,
    selected: (path: string) => boolean,
    options: RewindOptions,
    approvedKey: string,
  ): Promise<RewindResult> {
    return this.store.locked(async () => {
      const planned = await this.plan(id, selected, options, true);
      if (planned.key !== approvedKey) {
        const approved = new Set<string>(JSON.parse(approvedKey) as string[]);
        const current = new Set<string>(JSON.parse(planned.key) as string[]);
        const differing = [...approved, ...current].filter(
          (item) => !approved.has(item) || !current.has(item),
        );
        return { kind: 'changed', paths: [...new Set(differing.map((item) => item.split('\0')[0]!))].sort() };
      }
      const differsFromLast = fileChanges(planned.last.entries, planned.now.entries).length > 0;
      const before = differsFromLast
        ? (
            await this.store.add(
              planned.now,
              `before rewind to ${id}`,
              fileChanges(planned.last.entries, planned.now.entries),
              planned.last,
            )
          ).id
        : planned.lastRecord.id;
      const root = await this.root();
      const commit = await commitRewind(
        this.runtime,
        root,
        planned.plan,
        planned.target,
        planned.now,
        (entry) => this.storeBytes('', entry),
      );
      if (commit.kind !== 'done') return commit;
      for (const path of planned.plan.restore) {
        const entry = planned.target.entries[path];
        this.runtime.fileState.forget(`${root}/${path}`);
        this.agentWrites.record(
          `${root}/${path}`,
          entry?.type === 'file' ? await this.storeBytes(path, entry) : null,
        );
      }
      for (const merged of planned.plan.merge) {
        this.runtime.fileState.forget(`${root}/${merged.path}`);
        this.agentWrites.record(`${root}/${merged.path}`, merged.bytes);
      }
      const after = await this.record(`rewind to ${id}`);
      return {
        kind: 'rewound',
        checkpoint: after,
        before,
        restored: planned.changes,
        merged: planned.plan.merge.map((merged) => ({ path: merged.path, conflicts: merged.conflicts })),
        leftAlone: planned.plan.leftAlone,
      };
    });
  }

  /** Scans, stores and records a checkpoint, then prunes; the caller holds the store's lock. */
  private async record(label: string | undefined): Promise<Checkpoint> {
    const records = await this.store.list();
    const last = records.at(-1);
    const previous = last ? await this.store.manifestOf(last) : undefined;
    const manifest = await this.scanNow(true, previous);
    const files = fileChanges(previous?.entries ?? {}, manifest.entries);
    const record = await this.store.add(manifest, label, files, previous);
    await this.store.prune(this.options.maxCount, this.options.maxBytes);
    return publicOf(record);
  }

  /** The plan of a rewind, with a key that tells whether two plans would write the same. */
  private async plan(
    id: string,
    selected: (path: string) => boolean,
    options: RewindOptions,
    store: boolean,
  ) {
    const record = await this.recordOf(id);
    const lastRecord = (await this.store.list()).at(-1)!;
    const target = await this.store.manifestOf(record);
    const last = await this.store.manifestOf(lastRecord);
    const now = await this.scanNow(store, last);
    const plan = await planRewind({
      checkpointId: id,
      target,
      last,
      now,
      selected,
      resolve: resolverOf(options.resolve),
      agentWrite: (path) => this.agentWrites.get(`${this.rootPath}/${path}`),
      bytesOf: (path, entry, from) =>
        from === 'store' ? this.storeBytes(path, entry) : this.workspaceBytes(path),
    });
    const changes = fileChanges(pick(target.entries, plan.restore), pick(now.entries, plan.restore));
    // What the plan writes over: the same key means the same files, holding the same contents, are changed alike.
    const key = JSON.stringify([
      ...plan.restore.map((path) => contentIdentity(path, 'restore', now.entries[path])),
      ...plan.merge.map((merged) => contentIdentity(merged.path, 'merge', now.entries[merged.path])),
      ...plan.blocked.map((file) => `${file.path}\0blocked`),
      ...plan.makeDirectories.map((path) => `${path}\0make`),
      ...plan.removeDirectories.map((path) => `${path}\0remove`),
    ]);
    return { record, lastRecord, target, last, now, plan, changes, key };
  }

  /** The display blocks of a planned rewind: each file from now to what it will hold. */
  private async previewBlocks(planned: {
    target: Manifest;
    now: Manifest;
    plan: RewindPlan;
    changes: FileChange[];
  }): Promise<DiffDisplayBlock[]> {
    const root = await this.root();
    const blocks: DiffDisplayBlock[] = [];
    const workspace: EntryBytes = (path) => this.workspaceBytes(path);
    for (const path of planned.plan.restore) {
      const diff = await fileDiff(
        this.runtime,
        root,
        { path, change: 'modified' },
        { entry: planned.now.entries[path], bytesOf: workspace },
        { entry: planned.target.entries[path], bytesOf: this.storeBytes },
      );
      blocks.push(...diff.blocks);
    }
    for (const merged of planned.plan.merge) {
      const diff = await fileDiff(
        this.runtime,
        root,
        { path: merged.path, change: 'modified' },
        { entry: planned.now.entries[merged.path], bytesOf: workspace },
        {
          entry: { type: 'file', hash: '', size: 0, mode: merged.mode, mtimeMs: 0 },
          bytesOf: async () => merged.bytes,
        },
      );
      blocks.push(...diff.blocks);
    }
    return blocks;
  }

  private async scanNow(store: boolean, previous?: Manifest): Promise<Manifest> {
    if (previous === undefined) {
      const last = (await this.store.list()).at(-1);
      previous = last ? await this.store.manifestOf(last) : undefined;
    }
    return scanWorkspace({
      fs: this.runtime.fs,
      root: await this.root(),
      previous,
      maxFileBytes: this.options.maxFileBytes,
      ...(store
        ? {
            store: async (bytes: Uint8Array, hash: string) =>
              void (await this.store.objects.put(bytes, hash)),
          }
        : {}),
    });
  }

  private readonly storeBytes: EntryBytes = (_path, entry) => {
    if (entry.type !== 'file') throw new Error('Only a file has stored bytes.');
    return this.store.objects.get(entry.hash);
  };

  private async workspaceBytes(path: string): Promise<Uint8Array> {
    const handle = await this.runtime.fs.open(`${await this.root()}/${path}`, 'read');
    try {
      return await readHandleUpTo(handle, Number.MAX_SAFE_INTEGER, (await handle.stat()).size + 1);
    } finally {
      await handle.close();
    }
  }

  private async recordOf(id: string): Promise<CheckpointRecord> {
    const record = await this.store.get(id);
    if (!record) throw new CheckpointNotFoundError(id);
    return record;
  }

  /** The real path of the workspace root, on the runtime's file system. */
  private async root(): Promise<string> {
    this.rootPath ??= await this.runtime.fs.realpath(this.runtime.workDir);
    return this.rootPath;
  }

  /** Which workspace-relative paths `paths` select (all when absent); throws for a path outside the workspace. */
  private async selection(paths: readonly string[] | undefined): Promise<(path: string) => boolean> {
    if (paths === undefined) return () => true;
    const root = await this.root();
    const prefixes = paths.map((given) => {
      const absolute = given.startsWith('/') ? given : `${this.runtime.workDir}/${given}`;
      const normal = normalize(
        absolute.startsWith(this.runtime.workDir)
          ? root + absolute.slice(this.runtime.workDir.length)
          : absolute,
      );
      if (!isWithinDirectory(normal, root)) throw new PathOutsideWorkspaceError(given);
      return normal === root ? '' : normal.slice(root.length + 1);
    });
    return (path) =>
      prefixes.some((prefix) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`));
  }
}

/** `path` with `.`, `..` and repeated or trailing slashes resolved (POSIX, as every backend's paths here). */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The `resolve` option as a function of a path. */
function resolverOf(resolve: RewindOptions['resolve']): (path: string) => Resolution | undefined {
  if (typeof resolve === 'function') return resolve;
  return (path) => (resolve !== undefined && Object.hasOwn(resolve, path) ? resolve[path] : undefined);
}

function pick(entries: Manifest['entries'], paths: readonly string[]): Manifest['entries'] {
  const picked: Manifest['entries'] = {};
  for (const path of paths) if (entries[path] !== undefined) picked[path] = entries[path];
  return picked;
}

/** What identifies the content of an entry (not its stamp), for comparing two plans. */
function contentIdentity(path: string, step: string, entry: ManifestEntry | undefined): string {
  const head = `${path}\0${step}\0`;
  if (entry === undefined) return `${head}none`;
  if (entry.type === 'file') return `${head}${entry.hash}:${entry.mode}`;
  if (entry.type === 'link') return `${head}->${entry.target}`;
  return `${head}${entry.type}:${entry.mode}`;
}

function publicOf(record: CheckpointRecord): Checkpoint {
  return { id: record.id, label: record.label, time: record.time, files: record.files };
}

/**
 * Makes the checkpoints of a runtime's workspace, with their store on this host's local disk (docs/checkpoints.md).
 * A runtime has one: the tools of this package use it; a second call for the same runtime throws.
 */
export function createCheckpoints(runtime: ToolRuntime, options: CheckpointsOptions = {}): Checkpoints {
  const slot = runtime.slot(CHECKPOINTS);
  if (slot.value)
    throw new Error('This runtime has checkpoints already: createCheckpoints is called once per runtime.');
  slot.value = new Checkpoints(runtime, resolveOptions(options, runtime.fs.name, runtime.workDir));
  return slot.value;
}

/** The runtime's checkpoints: those {@link createCheckpoints} made, or ones with the default options. */
export function checkpointsOf(runtime: ToolRuntime): Checkpoints {
  const slot = runtime.slot(CHECKPOINTS);
  slot.value ??= new Checkpoints(runtime, resolveOptions({}, runtime.fs.name, runtime.workDir));
  return slot.value;
}
