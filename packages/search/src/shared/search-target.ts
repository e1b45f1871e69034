import { statIfExists, toolError, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';

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

/**
 * Resolves where Glob or Grep searches: the path policy's search rules (SPEC 1.1, inside the workspace on real
 * paths, deny rules), then existence. `input` is the path as the model gave it; messages quote it unchanged.
 */
export async function resolveSearchTarget(
  runtime: ToolRuntime,
  input: string,
  briefs: SearchTargetBriefs,
): Promise<SearchTargetResult> {
  const resolved = await runtime.paths.resolveSearchPath(input, briefs.outside);
  if (!resolved.ok) return resolved;
  const { real, absolute } = resolved.path;
  const stats = await statIfExists(real);
  if (!stats) {
    return {
      ok: false,
      error: toolError({ message: `\`${input}\` does not exist.`, brief: briefs.missing }),
    };
  }
  return { ok: true, target: { real, absolute, isDirectory: stats.isDirectory() } };
}
