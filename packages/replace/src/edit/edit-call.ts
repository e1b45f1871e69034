import type { ToolRuntime } from '@kimi-tools/core';
import type { FileStamp, LoggedEdit, ResolvedPath } from '@kimi-tools/core/toolkit';
import type { EditMatch, EditOutcome, MatchLevel } from '../match/types.js';
import type { Edit } from '../params.js';
import type { EditText, FileToEdit } from '../window/window-text.js';

// What the steps of an edit hand each other (docs/str-replace-file.md#checks-in-order): each step takes the call and
// what the steps before it found, and passes them on to the next, or answers.

/** One StrReplaceFile call: who asks, the open file, the edits and the tool's options. */
export interface EditCall {
  runtime: ToolRuntime;
  /** The tool's name, sent with the approval request. */
  sender: string;
  /** The path as the model gave it, for messages. */
  input: string;
  target: ResolvedPath;
  /** The open file: every read and the copy go through its descriptor. */
  file: FileToEdit;
  edits: readonly Edit[];
  mode: EditMatch;
  /** The tool option `modifiedSinceRead` is `apply-if-unrelated`. */
  applyIfUnrelated: boolean;
  /** The tool option: a larger file is read in windows. */
  streamAboveBytes: number;
  /** The edits this session already applied to the file (docs/str-replace-file.md#replays). */
  log: readonly LoggedEdit[];
  signal: AbortSignal | undefined;
}

/** The file as read for the edit. */
export interface EditRead {
  /** Its text: whole, as one window, or its windows. */
  text: EditText;
  /** The stamp it was read under (none for a file read whole without read-before-write). */
  stamp: FileStamp | undefined;
  /** The text last read, when the file changed since and the edit may still apply away from the change. */
  base: string | undefined;
}

/** `extras` of a successful StrReplaceFile call. */
export interface StrReplaceFileExtras {
  /** Replacements made by all edits together. */
  replacements: number;
  /** The loosest matching level any edit needed (`exact` when every edit matched exactly). */
  matchedBy: MatchLevel;
  /** Per edit, in order: its replacements and the level that matched it. */
  edits: EditOutcome[];
  /** Present when every edit was already applied by an earlier call of this session: nothing was written. */
  alreadyApplied?: true;
}

/** What the judged match adds for the answer: its extras, and the note of a change since the read it applies over. */
export interface EditVerdict {
  extras: StrReplaceFileExtras;
  staleNote: string;
}
