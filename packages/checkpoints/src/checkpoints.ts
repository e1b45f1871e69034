import type { DiffDisplayBlock, ToolRuntime } from '@kimi-tools/core';
import {
  defineRuntimeSlot,
  hashBytes,
  IgnoreRuleCache,
  isWithinDirectory,
  lstatMany,
  readHandleUpTo,
} from '@kimi-tools/core/toolkit';
import { fileDiff, type EntryBytes, type FileDiff } from './file-diffs.js';
import { resolveOptions, type CheckpointsOptions, type ResolvedCheckpointsOptions } from './options.js';
import { AgentWrites } from './rewind/agent-writes.js';
import { commitRewind } from './rewind/commit-rewind.js';
import { planRewind, type RewindPlan } from './rewind/plan-rewind.js';
import { protectedPaths } from './rewind/protected-paths.js';
import type { Checkpoint, Resolution, RewindOptions, RewindResult } from './rewind/rewind-types.js';
import { fileChanges, type FileChange } from './scan/changes.js';
import {
  emptyEntries,
  sameContent,
  type EntryLookup,
  type Manifest,
  type ManifestEntry,
} from './scan/manifest.js';
import { scanWorkspace, type ScanResult } from './scan/scan-workspace.js';
import {
  differences,
  entryOfRow,
  ROW_DIR,
  ROW_FILE,
  ROW_LINK,
  rowOfStats,
  type IndexRow,
  type StampIndex,
} from './scan/stamp-index.js';
import { CheckpointStore, type CheckpointRecord, type RecordSummary } from './store/checkpoint-store.js';
import type { PackWriter } from './store/pack-file.js';
import { recordCheckpoint } from './store/record-checkpoint.js';
import { isAtOrBelow } from './scan/workspace-paths.js';

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

/** The workspace scanned against the newest checkpoint (and, for a storing scan, its new contents in a pack). */
interface Scanned {
  /** The newest checkpoint before the scan, and its manifest (the index it left, when whole). */
  predecessor: { summary: RecordSummary; manifest: StampIndex } | undefined;
  /** The index the scan started from (the newest checkpoint's), when there was a whole one. */
  previous: StampIndex | undefined;
  scan: ScanResult;
  /** Holds what a storing scan read that the store lacked. */
  writer: PackWriter;
}

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
  private readonly ruleCache = new IgnoreRuleCache();
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
    return this.store.locked(async () => {
      const scanned = await this.scan(true);
      const record = await this.record(scanned, label);
      await this.store.prune(this.options.maxCount, this.options.maxBytes);
      return publicOf(record);
    });
  }

  /** Every checkpoint kept, oldest first. */
  async list(): Promise<Checkpoint[]> {
    return (await this.store.list()).map(publicOf);
  }

  /** The files that differ from checkpoint `fromId` to `toId` (default `'now'`: the workspace as it is), with diffs. */
  async diff(fromId: string, toId: string = 'now'): Promise<FileDiff[]> {
    const from = await this.store.manifestOf(await this.summaryOf(fromId));
    let to: StampIndex;
    let toBytes: EntryBytes;
    if (toId === 'now') {
      to = (await this.scan(false)).scan.index;
      toBytes = (path) => this.workspaceBytes(path);
    } else {
      to = await this.store.manifestOf(await this.summaryOf(toId));
      toBytes = this.storeBytes;
    }
    const differing = differences(from, to).map((item) => item.path);
    const root = await this.root();
    const diffs: FileDiff[] = [];
    for (const change of fileChanges(pick(from, differing), pick(to, differing))) {
      diffs.push(
        await fileDiff(
          this.runtime,
          root,
          change,
          { entry: from.entryAt(change.from ?? change.path), bytesOf: this.storeBytes },
          { entry: to.entryAt(change.path), bytesOf: toBytes },
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
    if (options.approve === undefined) {
      await this.summaryOf(id);
      return this.store.locked(() => this.rewindLocked(id, selected, options, undefined));
    }
    const planned = await this.plan(id, selected, options, await this.scan(false));
    if (planned.plan.blocked.length > 0) return { kind: 'blocked', files: planned.plan.blocked };
    if (planned.plan.restore.length === 0 && planned.plan.merge.length === 0) {
      if (planned.plan.makeDirectories.length + planned.plan.removeDirectories.length === 0)
        return { kind: 'unchanged', leftAlone: planned.plan.leftAlone };
    } else {
      const preview = {
        checkpoint: publicOf(await this.recordOf(id)),
        restore: planned.changes,
        merge: planned.plan.merge.map((merged) => merged.path),
        display: await this.previewBlocks(planned),
      };
      if (!(await options.approve(preview))) return { kind: 'refused' };
    }
    return this.store.locked(() => this.rewindLocked(id, selected, options, planned.key));
  }

  /**
   * The rewind itself, under the store's lock: one storing scan, the plan (which must be the approved one), the
   * state before recorded when it differs from the newest checkpoint, the commit, and the state after recorded.
   */
  private async rewindLocked(
    id: string,
    selected: (path: string) => boolean,
    options: RewindOptions,
    approvedKey: string | undefined,
  ): Promise<RewindResult> {
    const scanned = await this.scan(true);
    let planned: Awaited<ReturnType<Checkpoints['plan']>>;
    try {
      planned = await this.plan(id, selected, options, scanned);
    } catch (error) {
      await scanned.writer.abort();
      throw error;
    }
    const { plan } = planned;
    const stop = async (result: RewindResult) => {
      await scanned.writer.abort();
      return result;
    };
    if (approvedKey !== undefined && planned.key !== approvedKey) {
      const approved = new Set<string>(JSON.parse(approvedKey) as string[]);
      const current = new Set<string>(JSON.parse(planned.key) as string[]);
      const differing = [...approved, ...current].filter((item) => !approved.has(item) || !current.has(item));
      return stop({
        kind: 'changed',
        paths: [...new Set(differing.map((item) => item.split('\0')[0]!))].sort(),
      });
    }
    if (plan.blocked.length > 0) return stop({ kind: 'blocked', files: plan.blocked });
    const writes = plan.restore.length + plan.merge.length;
    if (writes + plan.makeDirectories.length + plan.removeDirectories.length === 0)
      return stop({ kind: 'unchanged', leftAlone: plan.leftAlone });
    const root = await this.root();
    const bytes = await this.restoredBytes(planned.target, plan.restore);
    // The state before the rewind: a checkpoint of its own when it differs from the newest (so it can be undone).
    let before = scanned.predecessor?.summary;
    if (before === undefined || scanned.scan.changed.length > 0 || scanned.previous === undefined) {
      before = await this.record(scanned, `before rewind to ${id}`);
    } else await scanned.writer.abort();
    const index = scanned.scan.index;
    const commit = await commitRewind(
      this.runtime,
      root,
      plan,
      planned.target,
      planned.now,
      (path) => bytes.get(path)!,
      (stats) =>
        stats.ino === undefined || stats.dev === undefined
          ? undefined
          : index.namesOfFile(stats.ino, stats.dev),
    );
    if (commit.kind !== 'done') return commit;
    for (const path of plan.restore) {
      this.runtime.fileState.forget(`${root}/${path}`);
      const entry = planned.target(path);
      this.agentWrites.record(
        `${root}/${path}`,
        bytes.get(path) ?? null,
        entry?.type === 'file' ? entry.hash : undefined,
      );
    }
    for (const merged of plan.merge) {
      this.runtime.fileState.forget(`${root}/${merged.path}`);
      this.agentWrites.record(`${root}/${merged.path}`, merged.bytes);
    }
    // The files are rewound: a look at them that fails now (a dropped connection) must not turn the rewind into a
    // failure. The state after it is then left to the next checkpoint's scan, which reads every file it wrote.
    const after = await this.recordRewound(id, before, scanned.scan.index, planned, plan).catch(
      () => undefined,
    );
    return {
      kind: 'rewound',
      ...(after === undefined ? {} : { checkpoint: publicOf(after) }),
      before: before.id,
      restored: planned.changes,
      merged: plan.merge.map((merged) => ({ path: merged.path, conflicts: merged.conflicts })),
      leftAlone: plan.leftAlone,
    };
  }

  /** The bytes of every file a rewind restores, read from the store (each block of its packs once). */
  private async restoredBytes(
    target: EntryLookup,
    paths: readonly string[],
  ): Promise<Map<string, Uint8Array>> {
    const hashes = new Map<string, string>();
    for (const path of paths) {
      const entry = target(path);
      if (entry?.type === 'file') hashes.set(path, entry.hash);
    }
    const contents = await this.store.objects.getMany([...hashes.values()]);
    return new Map([...hashes].map(([path, hash]) => [path, contents.get(hash)!]));
  }

  /**
   * Records the state after a rewind: the index of the scan before it, with every path the rewind wrote stat'ed
   * again and given the content it wrote (its new stamps are later than the scan began, so the next scan reads
   * them again whatever they say: nothing written meanwhile by anyone else is taken on trust).
   */
  private async recordRewound(
    id: string,
    before: RecordSummary,
    index: StampIndex,
    planned: {
      target: EntryLookup;
      now: EntryLookup;
      /** Every path whose entry differed from the checkpoint's, selected or not. */
      differing: readonly string[];
      targetSummary: RecordSummary;
    },
    plan: RewindPlan,
  ): Promise<CheckpointRecord> {
    const { target } = planned;
    const root = await this.root();
    const merged = new Map(plan.merge.map((item) => [item.path, item]));
    const paths = [...plan.restore, ...merged.keys(), ...plan.makeDirectories, ...plan.removeDirectories];
    const stats = await lstatMany(this.runtime.fs, root, paths);
    const changes = new Map<string, IndexRow | null>();
    const writer = this.store.objects.writer();
    for (const [at, path] of paths.entries()) {
      const seen = stats.at(at);
      const entry = target(path);
      const mergedFile = merged.get(path);
      if (seen === undefined) changes.set(path, null);
      else if (seen.isDirectory()) changes.set(path, rowOfStats(path, ROW_DIR, seen));
      else if (seen.isSymbolicLink() && entry?.type === 'link')
        changes.set(path, { ...rowOfStats(path, ROW_LINK, seen), target: entry.target });
      else if (seen.isFile() && mergedFile !== undefined) {
        const hash = hashBytes(mergedFile.bytes);
        await writer.put(hash, mergedFile.bytes);
        changes.set(path, {
          ...rowOfStats(path, ROW_FILE, seen, index.isIgnoreFile(index.rowOf(path) ?? -1)),
          hash,
        });
      } else if (seen.isFile() && entry?.type === 'file')
        changes.set(path, {
          ...rowOfStats(path, ROW_FILE, seen, index.isIgnoreFile(index.rowOf(path) ?? -1)),
          hash: entry.hash,
        });
    }
    const after = index.withChanges(index.header, changes);
    // Everything taken back: the state after is the checkpoint's, whose manifest the store has. Only the paths that
    // differed from it, and those the rewind wrote, can differ after.
    const afterEntry = (path: string) => {
      const row = changes.get(path);
      return row === undefined ? planned.now(path) : row === null ? undefined : entryOfRow(row);
    };
    const same = [...planned.differing, ...changes.keys()].every((path) =>
      sameContent(target(path), afterEntry(path)),
    );
    return recordCheckpoint(this.store, {
      label: `rewind to ${id}`,
      predecessor: { summary: before, manifest: index },
      index: after,
      changed: [...changes.keys()].sort(),
      writer,
      indexMoved: true,
      ...(same ? { knownManifest: planned.targetSummary.manifest } : {}),
    });
  }

  /**
   * Scans the workspace against the newest checkpoint and the index of its scan. A storing scan (under the store's
   * lock) keeps what it reads that the store lacks in a new pack.
   */
  private async scan(storing: boolean): Promise<Scanned> {
    const root = await this.root();
    const newest = await this.store.newest();
    let previous: StampIndex | undefined;
    let predecessor: Scanned['predecessor'];
    if (newest !== undefined) {
      const index = await this.store.readIndex(root, this.runtime.fs.name);
      if (index?.header.manifest === newest.manifest) previous = index;
      predecessor = { summary: newest, manifest: previous ?? (await this.store.manifestOf(newest)) };
    }
    const writer = this.store.objects.writer();
    const objects = this.store.objects;
    let packsRead: Promise<void> | undefined;
    const exclude = await this.storeInWorkspace(root);
    const scan = await scanWorkspace({
      fs: this.runtime.fs,
      root,
      previous,
      maxFileBytes: this.options.maxFileBytes,
      ruleCache: this.ruleCache,
      ...(exclude === undefined ? {} : { exclude }),
      ...(storing
        ? {
            store: async (hash: string, bytes: Uint8Array, path: string) => {
              // Most often the newest checkpoint has it at the same path (a file read again whose content did not
              // change). Else it is looked for in the packs: under the store's lock, none of them goes before this
              // checkpoint refers to it.
              const there = predecessor?.manifest.entryAt(path);
              if (there?.type === 'file' && there.hash === hash) return;
              await (packsRead ??= objects.refresh());
              if (!objects.holds(hash)) await writer.put(hash, bytes);
            },
          }
        : {}),
    });
    return { predecessor, previous, scan, writer };
  }

  /** Records a scan as a checkpoint; the caller holds the store's lock. */
  private async record(scanned: Scanned, label: string | undefined): Promise<CheckpointRecord> {
    return recordCheckpoint(this.store, {
      label,
      predecessor: scanned.predecessor,
      index: scanned.scan.index,
      changed: scanned.previous === undefined ? undefined : scanned.scan.changed,
      writer: scanned.writer,
      indexMoved: scanned.scan.rewritten,
    });
  }

  /** The plan of a rewind on a scan, with a key that tells whether two plans would write the same. */
  private async plan(
    id: string,
    selected: (path: string) => boolean,
    options: RewindOptions,
    scanned: Scanned,
  ) {
    const targetSummary = await this.summaryOf(id);
    const targetIndex = await this.store.manifestOf(targetSummary);
    const nowIndex = scanned.scan.index;
    // Every path that differs (the state after a rewind of some is the checkpoint's only if none is left), and those
    // selected.
    // The store's own files, where it lies in the workspace, are never rewound (a checkpoint taken before it was
    // left out of the scans holds them).
    const store = await this.storeInWorkspace(await this.root());
    const differingAll = differences(targetIndex, nowIndex).filter(
      (item) => store === undefined || !isAtOrBelow(item.path, store),
    );
    const differing = differingAll.filter((item) => selected(item.path));
    // The entries of the paths that differ, looked up once; any other path of now or of the checkpoint in place.
    const targetEntries = emptyEntries();
    const nowEntries = emptyEntries();
    for (const item of differing) {
      if (item.a !== undefined) targetEntries[item.path] = targetIndex.entryOf(item.a)!;
      if (item.b !== undefined) nowEntries[item.path] = nowIndex.entryOf(item.b)!;
    }
    const known = new Set(differing.map((item) => item.path));
    const target: EntryLookup = (path) => (known.has(path) ? targetEntries[path] : targetIndex.entryAt(path));
    const now: EntryLookup = (path) => (known.has(path) ? nowEntries[path] : nowIndex.entryAt(path));
    // The last checkpoint's entries differ from now only where the scan saw a change.
    const changedSinceLast = new Set(scanned.scan.changed);
    const predecessor = scanned.predecessor?.manifest;
    const last: EntryLookup =
      scanned.previous !== undefined
        ? (path) => (changedSinceLast.has(path) ? predecessor!.entryAt(path) : now(path))
        : (path) => predecessor?.entryAt(path);
    const protectedSet = await protectedPaths(
      differing.map((item) => item.path),
      now,
      options.protect,
    );
    const plan = await planRewind({
      checkpointId: id,
      target,
      last,
      now,
      differing: differing.map((item) => item.path),
      resolve: resolverOf(options.resolve),
      isProtected: (path) => protectedSet.has(path),
      agentWrite: (path) => this.agentWrites.get(`${this.rootPath}/${path}`),
      bytesOf: (path, entry, from) =>
        from === 'store' ? this.storeBytes(path, entry) : this.workspaceBytes(path),
    });
    const changes = fileChanges(pickFrom(target, plan.restore), pickFrom(now, plan.restore));
    // What the plan writes over: the same key means the same files, holding the same contents, are changed alike.
    const key = JSON.stringify([
      ...plan.restore.map((path) => contentIdentity(path, 'restore', now(path))),
      ...plan.merge.map((merged) => contentIdentity(merged.path, 'merge', now(merged.path))),
      ...plan.blocked.map((file) => `${file.path}\0blocked`),
      ...plan.makeDirectories.map((path) => `${path}\0make`),
      ...plan.removeDirectories.map((path) => `${path}\0remove`),
    ]);
    return {
      target,
      targetSummary,
      now,
      differing: differingAll.map((item) => item.path),
      plan,
      changes,
      key,
    };
  }

  /** The display blocks of a planned rewind: each file from now to what it will hold. */
  private async previewBlocks(planned: {
    target: EntryLookup;
    now: EntryLookup;
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
        { entry: planned.now(path), bytesOf: workspace },
        { entry: planned.target(path), bytesOf: this.storeBytes },
      );
      blocks.push(...diff.blocks);
    }
    for (const merged of planned.plan.merge) {
      const diff = await fileDiff(
        this.runtime,
        root,
        { path: merged.path, change: 'modified' },
        { entry: planned.now(merged.path), bytesOf: workspace },
        {
          entry: { type: 'file', hash: '', size: 0, mode: merged.mode },
          bytesOf: async () => merged.bytes,
        },
      );
      blocks.push(...diff.blocks);
    }
    return blocks;
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

  private async summaryOf(id: string): Promise<RecordSummary> {
    const summary = await this.store.summary(id);
    if (!summary) throw new CheckpointNotFoundError(id);
    return summary;
  }

  private async recordOf(id: string): Promise<CheckpointRecord> {
    const record = await this.store.get(id);
    if (!record) throw new CheckpointNotFoundError(id);
    return record;
  }

  /**
   * The store's directory relative to the workspace when it lies in it (a workspace that is the home directory holds
   * the default store): a scan that took it in would record the store's own files, and every rewind would find
   * them changed since the last checkpoint. Only a workspace on this host's disk can hold it.
   */
  private async storeInWorkspace(root: string): Promise<string | undefined> {
    if (this.runtime.fs.name !== 'local') return undefined;
    const store = await this.store.realDirectory();
    if (store === undefined || store === root || !isWithinDirectory(store, root)) return undefined;
    return store.slice(root.length + 1);
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

/** The entries of `paths` in an index, as a record. */
function pick(index: StampIndex, paths: readonly string[]): Manifest['entries'] {
  return pickFrom((path) => index.entryAt(path), paths);
}

/** The entries of `paths`, as a record. */
function pickFrom(lookup: EntryLookup, paths: readonly string[]): Manifest['entries'] {
  const picked = emptyEntries();
  for (const path of paths) {
    const entry = lookup(path);
    if (entry !== undefined) picked[path] = entry;
  }
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

function publicOf(record: Pick<CheckpointRecord, 'id' | 'label' | 'time' | 'files'>): Checkpoint {
  return { id: record.id, label: record.label, time: record.time, files: record.files };
}

/** What tells the runtime's backend from another of the same name (over SSH: the host), for the default store. */
function identityOf(runtime: ToolRuntime): string {
  return runtime.fs.identity ?? runtime.fs.name;
}

/**
 * Makes the checkpoints of a runtime's workspace, with their store on this host's local disk (docs/checkpoints.md).
 * A runtime has one: the tools of this package use it; a second call for the same runtime throws.
 */
export function createCheckpoints(runtime: ToolRuntime, options: CheckpointsOptions = {}): Checkpoints {
  const slot = runtime.slot(CHECKPOINTS);
  if (slot.value)
    throw new Error('This runtime has checkpoints already: createCheckpoints is called once per runtime.');
  slot.value = new Checkpoints(runtime, resolveOptions(options, identityOf(runtime), runtime.workDir));
  return slot.value;
}

/** The runtime's checkpoints: those {@link createCheckpoints} made, or ones with the default options. */
export function checkpointsOf(runtime: ToolRuntime): Checkpoints {
  const slot = runtime.slot(CHECKPOINTS);
  slot.value ??= new Checkpoints(runtime, resolveOptions({}, identityOf(runtime), runtime.workDir));
  return slot.value;
}
