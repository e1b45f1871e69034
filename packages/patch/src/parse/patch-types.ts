// What a patch says, whatever its format (docs/apply-patch.md#formats): file sections, each with its chunks.

/** A run of lines to find in a file (`oldLines`) and what to put there (`newLines`). */
export interface PatchChunk {
  /** 1-based line of the patch text where the chunk starts (its `@@` line, or its first line). */
  patchLine: number;
  /** `@@ <text>` lines of the envelope, in order: each names a line that must come before the chunk. */
  anchors: string[];
  /** Context and removed lines, in order. */
  oldLines: string[];
  /** Context and added lines, in order. */
  newLines: string[];
  /**
   * For each of `newLines`, the index in `oldLines` of the context line it repeats, or -1 for an added line: a context
   * line is written as the file has it, so a chunk matched after normalising changes only the lines it adds and
   * removes.
   */
  newFromOld: number[];
  /** The chunk must end at the end of the file (`*** End of File`). */
  atEndOfFile: boolean;
  /**
   * Unified diffs only: the 1-based line the hunk header gives for the old side (a hint: hunks are found by content),
   * and whether each side ends without a line break (`\ No newline at end of file`).
   */
  hintLine?: number;
  oldEndsWithoutNewline?: boolean;
  newEndsWithoutNewline?: boolean;
}

/** One file section of a patch. `patchLine` is the 1-based line of its header in the patch text. */
export type PatchSection =
  | { kind: 'add'; path: string; patchLine: number; lines: string[]; endsWithoutNewline?: boolean }
  | { kind: 'delete'; path: string; patchLine: number }
  | { kind: 'update'; path: string; patchLine: number; moveTo?: string; chunks: PatchChunk[] };

/** A parsed patch, or why it is not one (the message without its `Invalid patch: ` prefix). */
export type ParsedPatch = { ok: true; sections: PatchSection[] } | { ok: false; reason: string };
