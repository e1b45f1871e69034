import { shownArgumentLine } from '@kimi-tools/core/toolkit';
import type { ChunkFailure } from '../match/find-chunks.js';

// The sentences of a patch that cannot be applied, one per failing section (docs/apply-patch.md#what-the-model-reads).

/** The last sentence of every refused patch. */
export const NOTHING_CHANGED = 'No file was changed.';

/** A chunk that does not match, or matches several places. */
export function chunkFailureText(path: string, failure: ChunkFailure): string {
  if (failure.kind === 'ambiguous') {
    return (
      `${path}: chunk ${failure.chunk} matches ${failure.count} places (lines ${failure.lines.join(', ')}). ` +
      "Add an '@@ <line>' naming the enclosing function or class."
    );
  }
  const closest =
    failure.closest === undefined
      ? ''
      : ` The closest text is at line ${failure.closest.line}:\n\`\`\`\n${failure.closest.excerpt}\n\`\`\``;
  return `${path}: chunk ${failure.chunk} does not match the file. Its line '${shownArgumentLine(failure.line)}' was not found where the chunk should be.${closest}`;
}

/** A file to add, or to move onto, that already exists. */
export function addExistsText(path: string): string {
  return `${path}: \`${path}\` already exists. A patch adds only new files: update it with '*** Update File: ${path}' instead.`;
}

/** The same file named by two sections. */
export function duplicatePathText(path: string): string {
  return `${path}: the file is named by more than one section of the patch. Give each file one section.`;
}

/** New text the file's encoding cannot store. */
export function unencodableText(path: string, encoding: string): string {
  return `${path}: the new text has characters that the file's encoding (${encoding}) cannot store.`;
}

/** Every failure on its own line, then {@link NOTHING_CHANGED}. */
export function failuresText(failures: readonly string[]): string {
  const [only] = failures;
  if (failures.length === 1 && only !== undefined) {
    return `${only}${only.endsWith('```') ? '\n' : ' '}${NOTHING_CHANGED}`;
  }
  return `${failures.join('\n')}\n${NOTHING_CHANGED}`;
}
