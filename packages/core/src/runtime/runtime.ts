import path from 'node:path';
import type { Approval } from '../approval/approval.js';
import { PathPolicy } from '../path/path-policy.js';
import type { FileHistory } from '../state/file-history.js';
import { FileStateTracker } from '../state/file-state-tracker.js';
import { LineIndexStore } from '../text/line-index.js';
import { PathLocks } from '../write/path-locks.js';

/** A model capability a tool may depend on (ReadMediaFile needs `image_in` or `video_in`). */
export type Capability = 'image_in' | 'video_in';

/** Uploads a video and returns the URL the model should see instead of a data URL. */
export type UploadVideo = (bytes: Uint8Array, mime: string) => Promise<string>;

/** How ReadFile-style tools treat paths outside the workspace: allowed (writes ask `EDIT_OUTSIDE`) or refused. */
export type OutsidePolicy = 'allow' | 'deny';

/** StrReplaceFile's matching: `unique` (default) refuses ambiguous edits, `first` edits the first match. */
export type EditMatch = 'unique' | 'first';

/** Options of {@link createRuntime}. Only `workDir` and `approval` are required. */
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
  /** What the model can take in (default none). */
  capabilities?: Capability[];
  /** Where previous versions of changed files are kept, for undo. */
  history?: FileHistory;
  /** StrReplaceFile's matching (default `unique`). */
  editMatch?: EditMatch;
  /** Grep's timeout in milliseconds (default 20000). */
  grepTimeoutMs?: number;
  /** The ripgrep binary to use; a path that does not exist means "no ripgrep". */
  rgPath?: string;
  /** Time budget for building a diff, in milliseconds (default 200). */
  diffBudgetMs?: number;
  /** Uploads videos for ReadMediaFile instead of inlining them as data URLs. */
  uploadVideo?: UploadVideo;
}

/** Everything a tool needs from its host: options, and the state one agent session accumulates. */
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
  readonly capabilities: readonly Capability[];
  readonly history: FileHistory | undefined;
  readonly editMatch: EditMatch;
  readonly grepTimeoutMs: number;
  readonly rgPath: string | undefined;
  readonly diffBudgetMs: number;
  readonly uploadVideo: UploadVideo | undefined;
  /** What this session has read and written (read-before-write, staleness). */
  readonly fileState: FileStateTracker;
  /** Serialises changes to one real path. */
  readonly locks: PathLocks;
  /** Line offsets of large files already scanned, so repeated reads skip the scan. */
  readonly lineIndexes: LineIndexStore;
  /** The one path policy every tool applies. */
  readonly paths: PathPolicy;
}

function positiveNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got ${value}.`);
  return value;
}

/** Creates the runtime a set of tools shares. Two runtimes never share state. */
export function createRuntime(options: RuntimeOptions): ToolRuntime {
  if (!options.workDir) throw new Error('createRuntime: workDir is required.');
  if (!options.approval) throw new Error('createRuntime: approval is required (e.g. yoloApproval()).');
  const workDir = path.resolve(options.workDir);
  const settings = {
    workDir,
    additionalDirs: options.additionalDirs ?? [],
    outside: options.outside ?? 'allow',
    deny: [...(options.deny ?? [])],
    sensitive: [...(options.sensitive ?? [])],
  } as const;
  return {
    ...settings,
    approval: options.approval,
    readBeforeWrite: options.readBeforeWrite ?? true,
    capabilities: [...(options.capabilities ?? [])],
    history: options.history,
    editMatch: options.editMatch ?? 'unique',
    grepTimeoutMs: positiveNumber('grepTimeoutMs', options.grepTimeoutMs, 20_000),
    rgPath: options.rgPath,
    diffBudgetMs: positiveNumber('diffBudgetMs', options.diffBudgetMs, 200),
    uploadVideo: options.uploadVideo,
    fileState: new FileStateTracker(),
    locks: new PathLocks(),
    lineIndexes: new LineIndexStore(),
    paths: new PathPolicy(settings),
  };
}
