import type { ToolReturnValue, ToolRuntime } from '@kimi-tools/core';
import { statIfExists, type CoreBrief } from '@kimi-tools/core/toolkit';
import { searchTargetMissingError } from '../errors.js';

/** Error briefs that differ between Glob (`Directory ...`) and Grep (`Path ...`). */
export interface SearchTargetBriefs<Outside extends string, Missing extends string> {
  outside: Outside;
  missing: Missing;
}

/** A search directory or file that passed the workspace check and exists. */
export interface SearchTarget {
  /** Real absolute path (symlinks resolved). */
  real: string;
  /** Absolute path as given (symlinks not resolved), so a searched file keeps the name the model used. */
  absolute: string;
  isDirectory: boolean;
  /** A regular file (not a directory, FIFO, socket or device). */
  isFile: boolean;
}

/** The outcome of {@link resolveSearchTarget} (`Brief`: the briefs its error can carry). */
export type SearchTargetResult<Brief extends string> =
  { ok: true; target: SearchTarget } | { ok: false; error: ToolReturnValue<Brief> };

/**
 * Resolves where Glob or Grep searches: the path policy's search rules (docs/paths.md, inside the workspace on real
 * paths, deny rules), then existence. `input` is the path as the model gave it; messages quote it unchanged.
 */
export async function resolveSearchTarget<Outside extends string, Missing extends string>(
  runtime: ToolRuntime,
  input: string,
  briefs: SearchTargetBriefs<Outside, Missing>,
): Promise<SearchTargetResult<CoreBrief | Outside | Missing>> {
  const resolved = await runtime.paths.resolveSearchPath(input, briefs.outside);
  if (!resolved.ok) return resolved;
  const { real, absolute } = resolved.path;
  const stats = await statIfExists(runtime.fs, real);
  if (!stats) return { ok: false, error: searchTargetMissingError(input, briefs.missing) };
  return { ok: true, target: { real, absolute, isDirectory: stats.isDirectory(), isFile: stats.isFile() } };
}
