import type { ToolRuntime } from '@kimi-tools/core';
import {
  decodeText,
  encodeChange,
  encodeNewFile,
  missingFileError,
  notFoundMessage,
  missingDirectories,
  readShownPath,
  notAFileError,
  PathThroughFileError,
  pathThroughFileError,
  readStampedFile,
  readStateError,
  sensitiveEditError,
  unsupportedEncodingError,
  UnencodableTextError,
  type FileSetEntry,
  type ResolvedPath,
  type RuledTool,
} from '@kimi-tools/core/toolkit';
import { chunkReplacements } from '../match/apply-chunks.js';
import { shownName } from '../shown-name.js';
import { FileLines } from '../match/file-lines.js';
import { placeChunks, type ChunkFailure } from '../match/find-chunks.js';
import type { LineLevel } from '../match/line-levels.js';
import type { PatchChunk, PatchSection } from '../parse/patch-types.js';
import { addExistsText, chunkFailureText, duplicatePathText, unencodableText } from './plan-messages.js';

/** A chunk that matched only at a looser level than exact: the result says so. */
export interface LooseChunk {
  path: string;
  chunk: number;
  level: Exclude<LineLevel, 'exact'>;
}

/** One section, checked and computed: what the commit needs, and what the result shows. */
export interface PlannedSection {
  section: PatchSection;
  entry: FileSetEntry;
  /** Where each chunk's new lines stand in the new text (1-based spans), for the result's snippet. */
  changedLines: { from: number; count: number }[];
}

/** The whole patch checked: every section planned, or every failure (one line each); or a replay. */
export type PatchPlan =
  | { kind: 'planned'; sections: PlannedSection[]; loose: LooseChunk[] }
  | { kind: 'failed'; failures: string[] }
  | { kind: 'replayed' };

/**
 * How a section that did not apply reads if the patch was applied before: its change already in the files
 * (`applied`), its file to delete gone (`gone`), gone where a file of a close name stands (`gone-or-misnamed`: a slip
 * of that name reads the same), or not at all (`no`).
 */
type ReplayReading = 'applied' | 'gone' | 'gone-or-misnamed' | 'no';

/** What one section's check found: its plan, or its failure and how it reads for a replay. */
type SectionOutcome =
  | { ok: true; planned: PlannedSection; loose: LooseChunk[] }
  | { ok: false; failure: string; replay: ReplayReading };

/** The text of an added file: its lines, each ended by a line break unless the patch says the last has none. */
function addedText(section: Extract<PatchSection, { kind: 'add' }>): string {
  if (section.lines.length === 0) return '';
  return section.lines.join('\n') + (section.endsWithoutNewline ? '' : '\n');
}

function newLinesOf(placesFrom: readonly number[], chunks: readonly PatchChunk[]) {
  // 1-based lines of the new text where each chunk's new lines begin, after the shifts of the chunks before.
  let shift = 0;
  return chunks.map((chunk, index) => {
    const from = placesFrom[index]! + 1 + shift;
    shift += chunk.newLines.length - chunk.oldLines.length;
    return { from, count: chunk.newLines.length };
  });
}

/**
 * Checks every section and computes every file's new bytes in memory, before anything is asked or written
 * (docs/apply-patch.md#all-of-them-or-none): path policy (refused before the file is read), a file to add that exists,
 * a file to change that is missing or not a file, the same path in two sections, read-before-write (strict: any change
 * since the read refuses), the encoding, and each chunk's place. Every failing section is reported, not only the
 * first. A patch whose every section is already in the files is a replay.
 */
export async function planSections(
  runtime: ToolRuntime,
  sections: readonly PatchSection[],
  tool: RuledTool,
): Promise<PatchPlan> {
  const failures: string[] = [];
  const planned: PlannedSection[] = [];
  const loose: LooseChunk[] = [];
  const seen: Seen = { paths: new Set(), files: new Set() };
  const readings: ReplayReading[] = [];
  for (const section of sections) {
    const outcome = await planSection(runtime, tool, section, seen);
    if (outcome.ok) {
      planned.push(outcome.planned);
      loose.push(...outcome.loose);
    } else {
      failures.push(outcome.failure);
      readings.push(outcome.replay);
    }
  }
  if (failures.length > 0 && planned.length === 0 && readsAsReplay(readings)) return { kind: 'replayed' };
  if (failures.length > 0) return { kind: 'failed', failures };
  return { kind: 'planned', sections: planned, loose };
}

/**
 * Whether a patch none of whose sections applied was applied before: every section reads so. A file to delete that is
 * missing beside a close name reads so only when a section already in the files shows the patch was applied: alone,
 * it is as likely a slip of that name, which must fail with the name to use rather than pass for done.
 */
function readsAsReplay(readings: readonly ReplayReading[]): boolean {
  if (readings.includes('no')) return false;
  return !readings.includes('gone-or-misnamed') || readings.includes('applied');
}

/** What the sections so far name: real paths, and the files they update (by device and inode). */
interface Seen {
  paths: Set<string>;
  files: Set<string>;
}

/**
 * A path of the patch as the tools take it and as the messages show it: the patch may name a file in the quoted form
 * names are shown in (docs/paths.md#how-paths-are-shown), and every message shows it in that form.
 */
function namesOf(path: string): { input: string; shown: string } {
  const input = readShownPath(path);
  return { input, shown: shownName(input) };
}

/**
 * The directories to make for a new file at `path` (given as `name` in the patch), or the failure line when a part of
 * the path above it is a file: nothing can be created there.
 */
async function directoriesFor(
  runtime: ToolRuntime,
  path: ResolvedPath,
  name: string,
): Promise<{ ok: true; directories: string[] } | { ok: false; failure: string }> {
  try {
    return { ok: true, directories: await missingDirectories(runtime.fs, path.real) };
  } catch (error) {
    if (!(error instanceof PathThroughFileError)) throw error;
    const { input, shown } = namesOf(name);
    const refused = pathThroughFileError(input, error.levelsUp, runtime.fs.platform);
    return { ok: false, failure: `${shown}: ${refused.message}` };
  }
}

/** Resolves a path of the patch for a change; the policy's refusal, prefixed with the path, when it is refused. */
async function resolveForChange(
  runtime: ToolRuntime,
  path: string,
  seen: Seen,
): Promise<{ ok: true; path: ResolvedPath } | { ok: false; failure: string }> {
  const { input, shown } = namesOf(path);
  const resolved = await runtime.paths.resolveFile(input, 'edit');
  if (!resolved.ok) return { ok: false, failure: `${shown}: ${resolved.error.message}` };
  if (await runtime.paths.isSensitive(resolved.path)) {
    return { ok: false, failure: `${shown}: ${sensitiveEditError(input).message}` };
  }
  if (seen.paths.has(resolved.path.real)) return { ok: false, failure: duplicatePathText(shown) };
  seen.paths.add(resolved.path.real);
  return { ok: true, path: resolved.path };
}

async function planSection(
  runtime: ToolRuntime,
  tool: RuledTool,
  section: PatchSection,
  seen: Seen,
): Promise<SectionOutcome> {
  const source = await resolveForChange(runtime, section.path, seen);
  if (!source.ok) return { ok: false, failure: source.failure, replay: 'no' };
  const { input, shown } = namesOf(section.path);
  const current = await readStampedFile(runtime.fs, source.path.real);

  if (section.kind === 'add') {
    const text = addedText(section);
    let newBytes: Uint8Array;
    try {
      newBytes = encodeNewFile(text);
    } catch (error) {
      if (error instanceof UnencodableTextError)
        return { ok: false, failure: unencodableText(shown, 'utf-8'), replay: 'no' };
      throw error;
    }
    if (current !== 'missing') {
      const same = typeof current !== 'string' && Buffer.compare(current.bytes, newBytes) === 0;
      return { ok: false, failure: addExistsText(shown), replay: same ? 'applied' : 'no' };
    }
    const lines = text === '' ? 0 : section.lines.length;
    const made = await directoriesFor(runtime, source.path, section.path);
    if (!made.ok) return { ok: false, failure: made.failure, replay: 'no' };
    return {
      ok: true,
      loose: [],
      planned: {
        section,
        entry: {
          kind: 'add',
          path: source.path,
          oldBytes: null,
          newBytes,
          oldText: '',
          newText: text,
          createDirectories: made.directories,
        },
        changedLines: [{ from: 1, count: lines }],
      },
    };
  }

  if (current === 'missing') {
    const missing = await missingFileError(runtime, tool, input, source.path.absolute);
    return {
      ok: false,
      failure: `${shown}: ${missing.message}`,
      replay: missingReading(runtime, section, input, missing, source.path.real),
    };
  }
  if (current === 'not-a-file')
    return { ok: false, failure: `${shown}: ${notAFileError(input).message}`, replay: 'no' };
  if (runtime.readBeforeWrite) {
    const status = runtime.fileState.checkStamp(source.path.real, current.stamp);
    if (status !== 'ok')
      return { ok: false, failure: `${shown}: ${readStateError(input, status).message}`, replay: 'no' };
  }
  const decoded = decodeText(current.bytes);
  if (!decoded.ok)
    return { ok: false, failure: `${shown}: ${unsupportedEncodingError(input).message}`, replay: 'no' };
  const oldText = decoded.decoded.text;

  if (section.kind === 'delete') {
    return {
      ok: true,
      loose: [],
      planned: {
        section,
        entry: {
          kind: 'delete',
          path: source.path,
          oldBytes: current.bytes,
          newBytes: null,
          oldText,
          newText: '',
        },
        changedLines: [],
      },
    };
  }

  // Two names of one file (hard links) updated by two sections: each change is computed from the same old bytes and
  // the file is rewritten in place, so the second would silently undo the first.
  const identity = current.stamp.ino === undefined ? undefined : `${current.stamp.dev}:${current.stamp.ino}`;
  if (identity !== undefined && seen.files.has(identity))
    return { ok: false, failure: duplicatePathText(shown), replay: 'no' };
  if (identity !== undefined) seen.files.add(identity);

  let to: ResolvedPath | undefined;
  let toDirectories: string[] = [];
  if (section.moveTo !== undefined) {
    const destination = await resolveForChange(runtime, section.moveTo, seen);
    if (!destination.ok) return { ok: false, failure: destination.failure, replay: 'no' };
    if ((await readStampedFile(runtime.fs, destination.path.real)) !== 'missing') {
      return { ok: false, failure: addExistsText(namesOf(section.moveTo).shown), replay: 'no' };
    }
    const made = await directoriesFor(runtime, destination.path, section.moveTo);
    if (!made.ok) return { ok: false, failure: made.failure, replay: 'no' };
    to = destination.path;
    toDirectories = made.directories;
  }

  const file = new FileLines(oldText);
  const placement = placeChunks(file, section.chunks);
  if (!placement.ok)
    return {
      ok: false,
      failure: chunkFailureText(shown, placement.failure),
      replay: isReplay(file, section, placement.failure) ? 'applied' : 'no',
    };
  const replacements = chunkReplacements(file, section.chunks, placement.places);
  let newBytes: Uint8Array;
  try {
    newBytes = encodeChange(decoded.decoded, current.bytes, replacements);
  } catch (error) {
    if (error instanceof UnencodableTextError)
      return { ok: false, failure: unencodableText(shown, decoded.decoded.format.encoding), replay: 'no' };
    throw error;
  }
  let newText = '';
  let cut = 0;
  for (const replacement of replacements) {
    newText += oldText.slice(cut, replacement.start) + replacement.text;
    cut = replacement.end;
  }
  newText += oldText.slice(cut);
  const looseChunks = placement.places
    .map((place, index) => ({ path: shown, chunk: index + 1, level: place.level }))
    .filter((chunk): chunk is LooseChunk => chunk.level !== 'exact');
  return {
    ok: true,
    loose: looseChunks,
    planned: {
      section,
      entry: {
        kind: to ? 'move' : 'edit',
        path: source.path,
        ...(to ? { to, createDirectories: toDirectories } : {}),
        oldBytes: current.bytes,
        newBytes,
        oldText,
        newText,
      },
      changedLines: newLinesOf(
        placement.places.map((place) => place.start),
        section.chunks,
      ),
    },
  };
}

/**
 * How a missing file reads for a replay: a file to delete is gone, or, when the missing-file error offers close names
 * (` Did you mean: ...?`) and the history holds no version of it (which would show it existed), maybe misnamed.
 */
function missingReading(
  runtime: ToolRuntime,
  section: PatchSection,
  input: string,
  missing: { message: string },
  real: string,
): ReplayReading {
  if (section.kind !== 'delete') return 'no';
  const closeNames = missing.message !== notFoundMessage(input);
  const existed = (runtime.history?.list(real).length ?? 0) > 0;
  return closeNames && !existed ? 'gone-or-misnamed' : 'gone';
}

/** Whether an update that did not apply is already in the file: every chunk's new lines stand in order. */
function isReplay(
  file: FileLines,
  section: Extract<PatchSection, { kind: 'update' }>,
  failure: ChunkFailure,
): boolean {
  if (failure.kind !== 'not-found') return false;
  return placeChunks(file, section.chunks.map(reversedChunk)).ok;
}

/** The chunk that undoes `chunk`: its new lines to find, its old lines to put back, the same lines kept. */
function reversedChunk(chunk: PatchChunk): PatchChunk {
  const newFromOld = chunk.oldLines.map(() => -1);
  chunk.newFromOld.forEach((old, at) => {
    if (old >= 0) newFromOld[old] = at;
  });
  return { ...chunk, oldLines: chunk.newLines, newLines: chunk.oldLines, newFromOld };
}
