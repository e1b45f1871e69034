import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import {
  nameSeparators,
  shownArgument,
  shownErrorText,
  shownPath,
  type CoreBrief,
} from '@kimi-tools/core/toolkit';
import type { FileChange } from '../scan/changes.js';
import type { Checkpoint, LeftAlone } from '../rewind/rewind-types.js';

// The words of ListCheckpoints and Rewind (docs/checkpoints.md), each worded once. Every path is shown in the one form
// names are shown in (docs/paths.md#how-paths-are-shown), which Rewind's `paths` reads back.

/**
 * The separators these lines put after or between names: ` -> ` between a rename's names, `: ` after the name a line
 * starts with, `, ` between the names of a list, ` (renamed from ` between a rename's names in ListCheckpoints (a
 * name holding it, `a (renamed from b` modified, read as `a` renamed from `b (modified`). A name holding one is shown
 * quoted, so every line splits one way.
 */
const CHECKPOINT_SEPARATORS = nameSeparators(' -> ', ': ', ', ', ' (renamed from ');

/** A path as every line of ListCheckpoints and Rewind shows it (a path of `paths` may be anything a model sent). */
export function shown(path: string): string {
  return shownPath(path, CHECKPOINT_SEPARATORS);
}

/** The briefs of the two tools' errors. */
export const CheckpointBriefs = {
  checkpointNotFound: 'Checkpoint not found',
  userChanges: 'User changes',
  workspaceChanged: 'Workspace changed',
  rewindFailed: 'Rewind failed',
  pathOutside: 'Path outside the workspace',
} as const;

/** Every brief a result of these tools can carry (`''` on success). */
export type CheckpointBrief = '' | CoreBrief | (typeof CheckpointBriefs)[keyof typeof CheckpointBriefs];

/** Files named in one checkpoint line, at most. */
export const LISTED_FILES_MAX = 10;

/** `a.ts (modified)`, `b.ts (renamed from c.ts)`. */
function changeWords(change: FileChange): string {
  return change.change === 'renamed'
    ? `${shown(change.path)} (renamed from ${shown(change.from ?? '')})`
    : `${shown(change.path)} (${change.change})`;
}

/** `1 file` / `2 files`. */
export function files(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

/** One line of ListCheckpoints: `Checkpoint 2, 2026-11-28T19:54:39.000Z, "turn 2": 2 files changed: a.ts (modified), ...`. */
export function checkpointLine(checkpoint: Checkpoint): string {
  const label = checkpoint.label === undefined ? '' : `, ${JSON.stringify(checkpoint.label)}`;
  const head = `Checkpoint ${checkpoint.id}, ${checkpoint.time}${label}`;
  if (checkpoint.files.length === 0) return `${head}: no file changed`;
  const shown = checkpoint.files.slice(0, LISTED_FILES_MAX).map(changeWords);
  const more = checkpoint.files.length - shown.length;
  return `${head}: ${files(checkpoint.files.length)} changed: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/** What a rewind did to one file, in the result. */
export function restoredLine(change: FileChange): string {
  switch (change.change) {
    case 'modified':
      return `${shown(change.path)}: modified since the checkpoint, restored`;
    case 'created':
      return `${shown(change.path)}: created since the checkpoint, removed`;
    case 'deleted':
      return `${shown(change.path)}: deleted since the checkpoint, recreated`;
    case 'renamed':
      return `${shown(change.from ?? '')}: renamed to ${shown(change.path)} since the checkpoint, moved back`;
  }
}

/** A merged file, in the result. */
export function mergedLine(merged: { path: string; conflicts: number }): string {
  const conflicts =
    merged.conflicts === 0
      ? ''
      : `; ${merged.conflicts === 1 ? '1 conflict' : `${merged.conflicts} conflicts`} marked with <<<<<<< and >>>>>>> where the user changed the lines the agent did`;
  return `${shown(merged.path)}: changed by the agent and then by the user, merged: the agent's changes taken back, the user's kept${conflicts}`;
}

/** A file left alone that the result names: every one but those the workspace policy protects. */
export type NamedLeftAlone = LeftAlone & { reason: Exclude<LeftAlone['reason'], 'protected'> };

/** Why a file was left alone, in the result. */
export function leftAloneLine(file: NamedLeftAlone): string {
  switch (file.reason) {
    case 'user-changed':
      return `${shown(file.path)}: the user changed it after the agent's last write; the user's version is kept`;
    case 'not-restorable':
      return `${shown(file.path)}: it was over the size limit when the checkpoint was taken, so its content was not stored`;
    case 'not-stored':
      return `${shown(file.path)}: it is over the size limit, so its content is not stored: a rewind over it could not be undone`;
    case 'type-changed':
      return `${shown(file.path)}: a directory is there now where the checkpoint had a file, or the other way round`;
    case 'cannot-merge':
      return `${shown(file.path)}: it cannot be merged (a version of it is not text, or is missing)`;
  }
}

/**
 * The files the workspace policy protects (docs/paths.md: denied, or sensitive), counted and never named: Glob and
 * ListCheckpoints never name a denied file either.
 */
export function protectedLine(count: number): string {
  const them = count === 1 ? 'it' : 'them';
  return `${files(count)} the workspace policy protects (denied, or sensitive): the rewind does not change or name ${them}`;
}

/** `There is no checkpoint {id}. Call ListCheckpoints to see the checkpoints there are.` (`id` as the model gave it) */
export function checkpointNotFoundError(
  id: string,
): ToolReturnValue<typeof CheckpointBriefs.checkpointNotFound> {
  return toolError({
    message: `There is no checkpoint ${shownArgument(id)}. Call ListCheckpoints to see the checkpoints there are.`,
    brief: CheckpointBriefs.checkpointNotFound,
  });
}

/** A path of `paths` outside the workspace. */
export function pathOutsideError(path: string): ToolReturnValue<typeof CheckpointBriefs.pathOutside> {
  return toolError({
    message: `${shown(path)} is not in the workspace; a rewind only restores files of the workspace. Nothing was rewound.`,
    brief: CheckpointBriefs.pathOutside,
  });
}

/** The rewind stopped before writing: the user's files, and how to go on. */
export function userChangesError(
  blocked: readonly LeftAlone[],
): ToolReturnValue<typeof CheckpointBriefs.userChanges> {
  const changed = blocked.filter((file) => file.reason === 'user-changed');
  const unmergeable = blocked.filter((file) => file.reason === 'cannot-merge');
  const lines: string[] = [];
  if (changed.length > 0) {
    lines.push(
      "Nothing was rewound: the user changed these files after the agent's last write to them, and the rewind would overwrite their work:",
      ...changed.map((file) => shown(file.path)),
      "Call Rewind again with user_changes 'keep' to leave them as the user made them and rewind the rest, or 'merge' to take back only the agent's changes inside them.",
    );
  }
  if (unmergeable.length > 0) {
    lines.push(
      'Nothing was rewound: these files cannot be merged (a version of them is not text, or is missing):',
      ...unmergeable.map((file) => shown(file.path)),
      "Call Rewind again with user_changes 'keep' to leave them as the user made them, or leave them out of paths.",
    );
  }
  return toolError({ message: lines.join('\n'), brief: CheckpointBriefs.userChanges });
}

/** Files changed after the rewind looked at them: while its approval was open, or while it waited for a lock. */
export function workspaceChangedError(
  paths: readonly string[],
): ToolReturnValue<typeof CheckpointBriefs.workspaceChanged> {
  return toolError({
    message: `These files changed after the rewind looked at them: ${paths.map(shown).join(', ')}. Nothing was rewound; call Rewind again to see the changes as they are now.`,
    brief: CheckpointBriefs.workspaceChanged,
  });
}

/** Writing failed (`message`: the error's text, shown as every failure's is); every file is back but `unrestored`. */
export function rewindFailedError(
  message: string,
  unrestored: readonly string[],
): ToolReturnValue<typeof CheckpointBriefs.rewindFailed> {
  const tail =
    unrestored.length === 0
      ? 'Nothing was rewound: every file is as it was.'
      : `These files could not be put back and may hold the checkpoint's content: ${unrestored.map(shown).join(', ')}.`;
  return toolError({
    message: `Writing the rewind failed: ${shownErrorText(message)}. ${tail}`,
    brief: CheckpointBriefs.rewindFailed,
  });
}
