import { findClosestText, type ClosestText } from '@kimi-tools/core/toolkit';
import type { PatchChunk } from '../parse/patch-types.js';
import type { FileLines } from './file-lines.js';
import { LINE_LEVELS, type LineLevel } from './line-levels.js';

/** Where one chunk stands in the file: its old lines are `[start, start + count)`. */
export interface ChunkPlace {
  start: number;
  count: number;
  /** The level that found it (`exact` for a pure insertion). */
  level: LineLevel;
}

/** Why a chunk was not placed. `chunk` is its 1-based number within its file. */
export type ChunkFailure =
  | { kind: 'not-found'; chunk: number; line: string; closest: ClosestText | undefined }
  | { kind: 'ambiguous'; chunk: number; lines: number[]; count: number };

/** Every chunk placed, or the first that could not be; `replayed` when it was not found but its new lines were. */
export type ChunkPlacement =
  { ok: true; places: ChunkPlace[] } | { ok: false; failure: ChunkFailure; replayed: boolean };

/** The first level at which `lines` stand after `from`, with every place they stand at that level. */
function findAtFirstLevel(
  file: FileLines,
  lines: readonly string[],
  from: number,
  atEnd: boolean,
): { level: LineLevel; starts: number[] } | undefined {
  for (const level of LINE_LEVELS) {
    if (atEnd) {
      const start = file.lines.length - lines.length;
      if (start >= from && file.runAt(lines, level, start)) return { level, starts: [start] };
      continue;
    }
    const starts = file.findRun(lines, level, from);
    if (starts.length > 0) return { level, starts };
  }
  return undefined;
}

/**
 * Places the chunks of one file, in order, each after the previous one (docs/apply-patch.md#finding-each-chunk): its
 * `@@` anchors first (each the first line after the cursor that reads as the anchor), then its old lines, at the
 * first level that finds any place. Without an anchor the place must be the only one; with one, the first after the
 * anchor is taken (the anchor names the enclosing function or class). Of several places, a unified diff's hunk
 * line picks the one that starts exactly there. A chunk that adds lines only goes after its anchors, else at the end.
 */
export function placeChunks(file: FileLines, chunks: readonly PatchChunk[]): ChunkPlacement {
  const places: ChunkPlace[] = [];
  let cursor = 0;
  for (const [index, chunk] of chunks.entries()) {
    const number = index + 1;
    let anchored = false;
    for (const anchor of chunk.anchors) {
      const found = findAtFirstLevel(file, [anchor], cursor, false);
      if (found === undefined) {
        return { ok: false, failure: notFound(file, number, [anchor], cursor), replayed: false };
      }
      cursor = found.starts[0]! + 1;
      anchored = true;
    }
    if (chunk.oldLines.length === 0) {
      const start = anchored && !chunk.atEndOfFile ? cursor : file.lines.length;
      places.push({ start, count: 0, level: 'exact' });
      cursor = start;
      continue;
    }
    const found = findAtFirstLevel(file, chunk.oldLines, cursor, chunk.atEndOfFile);
    if (found === undefined) {
      const replayed = findAtFirstLevel(file, chunk.newLines, cursor, chunk.atEndOfFile) !== undefined;
      return { ok: false, failure: notFound(file, number, chunk.oldLines, cursor), replayed };
    }
    let start = found.starts[0]!;
    if (found.starts.length > 1 && !anchored) {
      const hinted =
        chunk.hintLine === undefined ? [] : found.starts.filter((at) => at === chunk.hintLine! - 1);
      if (hinted.length !== 1) {
        const lines = found.starts.map((at) => at + 1);
        return {
          ok: false,
          failure: { kind: 'ambiguous', chunk: number, lines, count: lines.length },
          replayed: false,
        };
      }
      start = hinted[0]!;
    }
    places.push({ start, count: chunk.oldLines.length, level: found.level });
    cursor = start + chunk.oldLines.length;
  }
  return { ok: true, places };
}

function notFound(file: FileLines, chunk: number, lines: readonly string[], from: number): ChunkFailure {
  const matched = file.longestPrefix(lines, from);
  const line = lines[Math.min(matched, lines.length - 1)] ?? '';
  return { kind: 'not-found', chunk, line, closest: findClosestText(file.text, file.text, lines.join('\n')) };
}
