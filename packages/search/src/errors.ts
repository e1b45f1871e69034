import { toolError, type ToolReturnValue } from '@kimi-tools/core';
import {
  failedOnArgumentMessage,
  notFoundMessage,
  quotedArgument,
  quotedPath,
  type CoreBrief,
} from '@kimi-tools/core/toolkit';
import { GLOB_MAX_BRACE_EXPANSION } from './limits.js';

// The search tools' error vocabulary: Glob's and Grep's own briefs and messages, worded once; the shared ones come
// from core.

/** Glob's own briefs. */
export const GlobBriefs = {
  invalidPattern: 'Invalid pattern',
  invalidDirectory: 'Invalid directory',
  outside: 'Directory outside workspace',
  missing: 'Directory not found',
  failed: 'Glob failed',
} as const;

/** Grep's own briefs. */
export const GrepBriefs = {
  timedOut: 'Grep timed out',
  outside: 'Path outside workspace',
  missing: 'Path not found',
  failed: 'Failed to grep',
} as const;

/** Every brief a Glob result can carry (`''` on success). */
export type GlobBrief = '' | CoreBrief | (typeof GlobBriefs)[keyof typeof GlobBriefs];

/** Every brief a Grep result can carry (`''` on success). */
export type GrepBrief = '' | CoreBrief | (typeof GrepBriefs)[keyof typeof GrepBriefs];

/** Refused: the search directory or file does not exist (`brief`: the tool's own word for it). */
export function searchTargetMissingError<Brief extends string>(
  input: string,
  brief: Brief,
): ToolReturnValue<Brief> {
  return toolError({ message: notFoundMessage(input), brief });
}

/** Refused: Glob's pattern is empty. */
export function emptyPatternError(): ToolReturnValue<typeof GlobBriefs.invalidPattern> {
  return toolError({ message: 'Pattern cannot be empty.', brief: GlobBriefs.invalidPattern });
}

/** Refused: Glob's pattern would leave the search directory. */
export function escapingPatternError(pattern: string): ToolReturnValue<typeof GlobBriefs.invalidPattern> {
  return toolError({
    message: `Pattern ${quotedArgument(pattern)} must be relative to the search directory and may not contain \`..\`.`,
    brief: GlobBriefs.invalidPattern,
  });
}

/** Refused: Glob's pattern has a brace range too large to expand. */
export function braceRangeTooLargeError(pattern: string): ToolReturnValue<typeof GlobBriefs.invalidPattern> {
  return toolError({
    message: `Pattern ${quotedArgument(pattern)} has a brace range too large to expand (more than ${GLOB_MAX_BRACE_EXPANSION} patterns). Use a wildcard such as \`*\` instead.`,
    brief: GlobBriefs.invalidPattern,
  });
}

/** Refused: Glob's pattern could only be matched by backtracking, with too many wildcards for that. */
export function tooComplexPatternError(
  pattern: string,
  maxWildcards: number,
): ToolReturnValue<typeof GlobBriefs.invalidPattern> {
  return toolError({
    message: `Pattern ${quotedArgument(pattern)} combines more than ${maxWildcards} wildcards with extglobs, a leading \`!\` or POSIX classes, which cannot be matched in bounded time. Use only \`*\`, \`?\`, \`[...]\` and \`**\`, or fewer wildcards.`,
    brief: GlobBriefs.invalidPattern,
  });
}

/** Refused: Glob's pattern ends in `/` or holds `//`. */
export function emptySegmentError(pattern: string): ToolReturnValue<typeof GlobBriefs.invalidPattern> {
  return toolError({
    message: `Pattern ${quotedArgument(pattern)} has an empty path segment (a \`/\` at its end or \`//\`). Drop the extra \`/\` to match a directory itself, or end the pattern with \`/*\` or \`/**\` to match what it contains.`,
    brief: GlobBriefs.invalidPattern,
  });
}

/** Refused: Glob searches directories only. */
export function notADirectoryError(directory: string): ToolReturnValue<typeof GlobBriefs.invalidDirectory> {
  return toolError({
    message: `${quotedPath(directory)} is not a directory.`,
    brief: GlobBriefs.invalidDirectory,
  });
}

/** The message of a Glob that failed unexpectedly. */
export function globFailedMessage(pattern: string, error: string): string {
  return failedOnArgumentMessage('search for pattern', pattern, error);
}

/** The first sentence of Glob's answer: how many paths match (every match, also those beyond the cap). */
export function globMatchesSentence(total: number, pattern: string): string {
  return total === 0
    ? `No matches found for pattern ${quotedArgument(pattern)}.`
    : `Found ${total} matches for pattern ${quotedArgument(pattern)}.`;
}

/** How a Grep timeout reads: the whole error, or the start of the note on partial results. */
function timedOutSentence(timeoutMs: number): string {
  return `Grep timed out after ${timeoutMs / 1000}s.`;
}

/** Refused: the search ran out of time before finding anything. */
export function timedOutError(timeoutMs: number): ToolReturnValue<typeof GrepBriefs.timedOut> {
  return toolError({
    message: `${timedOutSentence(timeoutMs)} Try a more specific path or pattern.`,
    brief: GrepBriefs.timedOut,
  });
}

/** The note on partial results of a search that ran out of time. */
export function timedOutNote(timeoutMs: number): string {
  return `${timedOutSentence(timeoutMs)} Partial results returned.`;
}

/** The message of a Grep that failed (ripgrep's own error, or an unexpected one). */
export function grepFailedMessage(error: string): string {
  return `Failed to grep. Error: ${error}`;
}

/** Refused: ripgrep failed with an error of its own (exit code 2, nothing found). */
export function ripgrepError(stderr: string): ToolReturnValue<typeof GrepBriefs.failed> {
  return toolError({ message: grepFailedMessage(stderr), brief: GrepBriefs.failed });
}

/** Thrown (and turned into the failure message) when the call's signal aborts the search. */
export const SEARCH_ABORTED_MESSAGE = 'The search was aborted.';

/** Thrown for a ripgrep exit that is neither a result nor its own error. */
export function ripgrepExitMessage(exitCode: number | null, stderr: string): string {
  return `ripgrep exited with code ${exitCode ?? 'unknown'}${stderr ? `: ${stderr}` : ''}`;
}
