import path from 'node:path';
import type { Approval } from '../approval/approval.js';
import type { FileSystem } from '../fs/file-system.js';
import { localFileSystem } from '../fs/local-file-system.js';
import { APPROVAL_REQUIRED_MESSAGE, movedRuntimeOptionMessage, WORKDIR_REQUIRED_MESSAGE } from '../errors.js';
import { PathPolicy } from '../path/path-policy.js';
import type { FileHistory } from '../state/file-history.js';
import { FileStateTracker } from '../state/file-state-tracker.js';
import { PathLocks } from '../write/path-locks.js';
import { positiveNumberOption } from './options.js';
import { RuntimeSlots, type RuntimeSlot } from './runtime-slot.js';
import { ChangeObservers } from '../observe/change-observers.js';
import type { PermissionRuleInput } from '../permissions/permission-rule.js';
import { permissionsOption, type PermissionRules } from '../permissions/permission-rules.js';

/** How ReadFile-style tools treat paths outside the workspace: allowed (writes ask `EDIT_OUTSIDE`) or refused. */
export type OutsidePolicy = 'allow' | 'deny';

/** Options of {@link createRuntime}: what every tool of a session shares. Only `workDir` and `approval` are required. */
export interface RuntimeOptions {
  /** The working directory: relative paths resolve against it, and it is the heart of the workspace. */
  workDir: string;
  /** More directories that belong to the workspace. */
  additionalDirs?: string[];
  /** Decides whether writes and edits go ahead. */
  approval: Approval;
  /** Require a ReadFile before overwriting or editing an existing file (default `true`). */
  readBeforeWrite?: boolean;
  /** Absolute paths outside the workspace: `allow` (default) or `deny`. */
  outside?: OutsidePolicy;
  /** Globs matched against real paths; a hit is refused by every tool. */
  deny?: string[];
  /** More basename globs of sensitive files, added to the built-in ones. */
  sensitive?: string[];
  /** Where previous versions of changed files are kept, for undo. */
  history?: FileHistory;
  /** Time budget for building a diff, in milliseconds (default 200). */
  diffBudgetMs?: number;
  /** Where the files are: the local disk (default), memory, a remote host... (docs/file-systems.md). */
  fs?: FileSystem;
  /**
   * Permission rules (docs/permissions.md): `allow` a change without asking, `ask` always, or `deny` a tool or group
   * a path, e.g. `['allow Edit(src/**)', 'deny Edit(**\/*.lock)']`. An invalid rule makes `createRuntime` throw.
   */
  permissions?: readonly PermissionRuleInput[];
}

/** Everything the tools of one agent session share: the workspace rules, and the state the session accumulates. */
export interface ToolRuntime {
  /** Absolute working directory. */
  readonly workDir: string;
  /** Live list: a directory pushed here belongs to the workspace from the next call on. */
  readonly additionalDirs: string[];
  readonly approval: Approval;
  readonly readBeforeWrite: boolean;
  readonly outside: OutsidePolicy;
  readonly deny: readonly string[];
  readonly sensitive: readonly string[];
  readonly history: FileHistory | undefined;
  readonly diffBudgetMs: number;
  /** The file system every tool of this runtime reads and writes through. */
  readonly fs: FileSystem;
  /** What this session has read and written (read-before-write, staleness). */
  readonly fileState: FileStateTracker;
  /** Serialises changes to one real path. */
  readonly locks: PathLocks;
  /** The one path policy every tool applies. */
  readonly paths: PathPolicy;
  /** The permission rules, compiled (docs/permissions.md); applied after the path policy. */
  readonly permissions: PermissionRules;
  /** This runtime's value of a tool package's {@link RuntimeSlot} (made on first use). */
  slot<T>(slot: RuntimeSlot<T>): T;
  /** Who is told of every change the tools apply (diagnostics, a formatter, a file watcher). */
  readonly changeObservers: ChangeObservers;
  /** Ends the session: closes every change observer (and the servers or watchers it runs). Idempotent. */
  close(): Promise<void>;
}

/** Options that belonged to the runtime before each tool took its own, and where they went. */
const MOVED_OPTIONS: Readonly<Record<string, string>> = {
  capabilities: 'new ReadMediaFile(runtime, { capabilities })',
  uploadVideo: 'new ReadMediaFile(runtime, { uploadVideo })',
  editMatch: 'new StrReplaceFile(runtime, { match })',
  grepTimeoutMs: 'new Grep(runtime, { timeoutMs })',
  rgPath: 'new Grep(runtime, { rgPath })',
};

/** Creates the runtime a set of tools shares. Two runtimes never share state. */
export function createRuntime(options: RuntimeOptions): ToolRuntime {
  if (!options.workDir) throw new Error(WORKDIR_REQUIRED_MESSAGE);
  if (!options.approval) throw new Error(APPROVAL_REQUIRED_MESSAGE);
  for (const name of Object.keys(options)) {
    const place = MOVED_OPTIONS[name];
    if (place !== undefined) throw new Error(movedRuntimeOptionMessage(name, place));
  }
  const workDir = path.resolve(options.workDir);
  const settings = {
    workDir,
    additionalDirs: options.additionalDirs ?? [],
    outside: options.outside ?? 'allow',
    deny: [...(options.deny ?? [])],
    sensitive: [...(options.sensitive ?? [])],
  } as const;
  const fs = options.fs ?? localFileSystem;
  const slots = new RuntimeSlots();
  const changeObservers = new ChangeObservers();
  const runtime: ToolRuntime = {
    ...settings,
    approval: options.approval,
    readBeforeWrite: options.readBeforeWrite ?? true,
    history: options.history,
    diffBudgetMs: positiveNumberOption('createRuntime', 'diffBudgetMs', options.diffBudgetMs, 200),
    fs,
    fileState: new FileStateTracker(fs),
    locks: new PathLocks(),
    paths: new PathPolicy(settings, { fs }),
    permissions: permissionsOption(options.permissions, fs.platform),
    slot: (slot) => slots.get(slot, runtime),
    changeObservers,
    close: () => changeObservers.close(),
  };
  return runtime;
}
