import { nameSeparators, readShownPath, shownPath } from '@kimi-tools/core/toolkit';

/**
 * The separators ApplyPatch's lines put after or between names (docs/apply-patch.md#what-the-model-reads): ` -> `
 * between a move's two names, `: ` after the name a failure line starts with, `, ` between the names of the approval's
 * description and of a list, a backtick after a name in backticks, and ` matched after normalising ` after the name of
 * a chunk that needed a looser match. A name holding one is shown quoted, so every line splits one way.
 */
const PATCH_SEPARATORS = nameSeparators(' -> ', ': ', ', ', '`', ' matched after normalising ');

/**
 * A file's name as every message of ApplyPatch shows it, as core shows every path (its two ends past 32,767
 * characters): `input` is the name itself, not its shown form.
 */
export function shownName(input: string): string {
  return shownPath(input, PATCH_SEPARATORS);
}

/** A path as the patch gives it (maybe in the form names are shown in), as every message shows it. */
export function shownPatchPath(path: string): string {
  return shownName(readShownPath(path));
}
