import { stat } from 'node:fs/promises';
import { toolError, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';

/** Error briefs that differ between Glob (`Directory ...`) and Grep (`Path ...`). */
export interface SearchTargetBriefs {
  outside: string;
  missing: string;
}

/** A search directory or file that passed the workspace check and exists. */
export interface SearchTarget {
  /** Real absolute path (symlinks resolved). */
  real: string;
  /** Absolute path as given (symlinks not resolved), so a searched file keeps the name the model used. */
  absolute: string;
  isDirectory: boolean;
}

/** The outcome of {@link resolveSearchTarget}. */
export type SearchTargetResult = { ok: true; target: SearchTarget } | { ok: false; error: ToolReturnValue };

function outsideMessage(input: string): string {
  return `\`${input}\` is outside the workspace. You can only search within the working directory and additional directories.`;
}

/**
 * Resolves where Glob or Grep searches: SPEC 1.1 input rules, the workspace check on real paths, deny rules, then
 * existence. `input` is the path as the model gave it; messages quote it unchanged.
 */
export async function resolveSearchTarget(
  runtime: ToolRuntime,
  input: string,
  briefs: SearchTargetBriefs,
): Promise<SearchTargetResult> {
  const resolved = await runtime.paths.resolveSearchPath(input);
  if (!resolved.ok) {
    switch (resolved.reason) {
      case 'empty':
        return {
          ok: false,
          error: toolError({ message: 'File path cannot be empty.', brief: 'Empty file path' }),
        };
      case 'invalid':
        return {
          ok: false,
          error: toolError({ message: `\`${input}\` is not a valid path.`, brief: 'Invalid path' }),
        };
      case 'denied':
        return {
          ok: false,
          error: toolError({
            message: `\`${input}\` is denied by the workspace policy.`,
            brief: 'Access denied',
          }),
        };
      case 'outside':
        return { ok: false, error: toolError({ message: outsideMessage(input), brief: briefs.outside }) };
    }
  }
  const real = resolved.path.real;
  try {
    const stats = await stat(real);
    return { ok: true, target: { real, absolute: resolved.path.absolute, isDirectory: stats.isDirectory() } };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return {
        ok: false,
        error: toolError({ message: `\`${input}\` does not exist.`, brief: briefs.missing }),
      };
    }
    throw error;
  }
}
