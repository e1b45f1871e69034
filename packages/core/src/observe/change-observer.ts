import type { ResolvedPath } from '../path/path-policy.js';

/** A file change that is on disk: what {@link FileChangeObserver}s are told after every successful write. */
export interface AppliedFileChange {
  /** The tool that made the change, e.g. `WriteFile`. */
  readonly sender: string;
  /** The file, as the path policy resolved it (`real` is where the bytes went). */
  readonly path: ResolvedPath;
  /** The bytes before the change; `null` when the file was created. */
  readonly oldBytes: Uint8Array | null;
  /** The bytes now on disk. */
  readonly newBytes: Uint8Array;
  /** The signal of the tool call, aborted when the caller gives up on it. */
  readonly signal: AbortSignal | undefined;
}

/** A file a tool removed (ApplyPatch's deletion, the old name of a move): what observers are told after the commit. */
export interface RemovedFileChange {
  /** The tool that removed it, e.g. `ApplyPatch`. */
  readonly sender: string;
  /** The file, as the path policy resolved it (`real` is where it was). */
  readonly path: ResolvedPath;
  /** The bytes it held. */
  readonly oldBytes: Uint8Array;
  /** The signal of the tool call, aborted when the caller gives up on it. */
  readonly signal: AbortSignal | undefined;
}

/**
 * What an observer adds to the result of the call that made the change. Every field is optional: an observer that
 * has nothing to say returns `undefined`.
 */
export interface ChangeSection {
  /** Text for the model, appended to the result's `message` after a blank line. */
  readonly text?: string;
  /** Text for the user, shown as a `{type:'section', source, text}` display block (defaults to `text`). */
  readonly display?: string;
  /** Structured data for programs, put in the result's `extras` under the observer's `name`. */
  readonly extras?: unknown;
}

/**
 * Something told of every file change a tool applies through `applyFileChange` (a diagnostics checker, a
 * formatter, a file watcher), registered with `runtime.changeObservers.add`. It runs after the write, outside the
 * locks, and must bound its own time: the tool call waits for it. What it throws is dropped; the write stands.
 */
export interface FileChangeObserver {
  /** Names the observer: the key of its `extras`, the `source` of its display block (e.g. `diagnostics`). */
  readonly name: string;
  /** Called once per applied change; may return a section for the call's result. */
  changeApplied(change: AppliedFileChange): Promise<ChangeSection | undefined> | ChangeSection | undefined;
  /**
   * Optional: called once per file a tool removed, after the commit (a record of what the agent's tools did, such as
   * the checkpoints' own, needs it: a file the agent removed is not one the user removed). Adds nothing to the result.
   */
  changeRemoved?(change: RemovedFileChange): Promise<void> | void;
  /** Called once by `runtime.close()`: stop processes, timers and watchers. */
  close?(): Promise<void> | void;
}
