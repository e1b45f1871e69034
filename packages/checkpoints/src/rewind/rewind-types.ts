import type { DiffDisplayBlock } from '@kimi-tools/core';
import type { FileChange } from '../scan/changes.js';

/** What a checkpoint is, as the API and the tools show it. */
export interface Checkpoint {
  /** Decimal, increasing (`1`, `2`...), never reused by the store. */
  id: string;
  label: string | undefined;
  /** When it was taken, ISO 8601. */
  time: string;
  /** The files that changed since the checkpoint before it (every file, for the first one). */
  files: FileChange[];
}

/** How to treat a file the user changed after the agent's last write: keep the user's, take the checkpoint's, merge. */
export type Resolution = 'keep' | 'take' | 'merge';

/** Options of a rewind. */
export interface RewindOptions {
  /** Only these paths (relative to the workspace, or absolute inside it; a directory stands for what is under it). */
  paths?: readonly string[];
  /**
   * What to do with each file the user changed, by its workspace-relative path; or a function of that path (return
   * `undefined` for no resolution).
   */
  resolve?: Readonly<Record<string, Resolution>> | ((path: string) => Resolution | undefined);
  /**
   * Whether a path must be left as it is, whatever it differs by: its workspace-relative path, and whether something
   * is there now. Such a path is in `leftAlone` as `protected` (the Rewind tool passes the runtime's path policy).
   */
  protect?: (path: string, exists: boolean) => boolean | Promise<boolean>;
  /** Asked before anything is written, with what the rewind will do; `false` changes nothing. */
  approve?: (preview: RewindPreview) => Promise<boolean>;
}

/** What a rewind will do, as shown for approval. */
export interface RewindPreview {
  checkpoint: Checkpoint;
  /** What happened to each file since the checkpoint that the rewind takes back. */
  restore: FileChange[];
  /** Files merged (the user's changes kept, the agent's taken back). */
  merge: string[];
  /** The diff of every file the rewind changes: from now to what it will hold. */
  display: DiffDisplayBlock[];
}

/** A file a rewind left alone, and why. */
export interface LeftAlone {
  path: string;
  reason:
    /** The user changed it after the agent's last write, and chose to keep it (or no resolution was given). */
    | 'user-changed'
    /** `merge` was asked but the versions are not all text (or one is missing). */
    | 'cannot-merge'
    /** The checkpoint recorded it over the size limit: its content was not stored. */
    | 'not-restorable'
    /** It is over the size limit now: its content is not stored, so a rewind over it could not be undone. */
    | 'not-stored'
    /** A directory is now where the checkpoint had a file, or the other way round. */
    | 'type-changed'
    /** `protect` said to leave it (the Rewind tool: a path the workspace policy denies, or a sensitive file). */
    | 'protected';
}

/** What a rewind did. */
export type RewindResult =
  /** Every file listed was restored (or merged); `leftAlone` says which were not and why. */
  | {
      kind: 'rewound';
      /**
       * The checkpoint the rewind itself made (the state after it); absent when the files could not be looked at
       * once written (a connection dropped just then): the next checkpoint records that state.
       */
      checkpoint?: Checkpoint;
      /** The checkpoint holding the state before the rewind: rewind to it to undo this one. */
      before: string;
      restored: FileChange[];
      merged: { path: string; conflicts: number }[];
      leftAlone: LeftAlone[];
    }
  /** Nothing differs from the checkpoint (in the paths asked), but what `leftAlone` lists. */
  | { kind: 'unchanged'; leftAlone: LeftAlone[] }
  /** Nothing was written: these files the user changed have no resolution, or cannot be resolved as asked. */
  | { kind: 'blocked'; files: LeftAlone[] }
  /** `approve` said no: nothing was written. */
  | { kind: 'refused' }
  /**
   * The workspace changed since the plan (while the approval was open, or while the rewind waited for another
   * writer's lock): nothing was written.
   */
  | { kind: 'changed'; paths: string[] }
  /** Writing failed: every file is back as it was, but `unrestored`. */
  | { kind: 'failed'; message: string; unrestored: string[] };
