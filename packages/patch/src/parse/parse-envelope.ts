import { shownArgumentLine } from '@kimi-tools/core/toolkit';
import { shownPatchPath } from '../shown-name.js';
import type { ParsedPatch, PatchChunk, PatchSection } from './patch-types.js';

/** The envelope's markers, compared on trimmed lines (models pad them). */
export const BEGIN_PATCH = '*** Begin Patch';
export const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/**
 * The reasons an envelope is refused (each becomes `Invalid patch: {reason}`): a line of the patch quoted as a line of
 * a file is shown, a path as every message shows one.
 */
export const envelopeReasons = {
  firstLine: `the first line must be '${BEGIN_PATCH}'.`,
  lastLine: `the last line must be '${END_PATCH}'.`,
  badHeader: (line: number, text: string) =>
    `line ${line}: '${shownArgumentLine(text)}' is not a valid section header. Valid headers: '${ADD_FILE}{path}', '${DELETE_FILE}{path}', '${UPDATE_FILE}{path}'.`,
  emptyChunk: (line: number, path: string) =>
    `line ${line}: the chunk for '${shownPatchPath(path)}' is empty.`,
};

/** Whether a trimmed line opens a section or ends the patch: where a section's body stops. */
function endsBody(trimmed: string): boolean {
  return (
    trimmed === END_PATCH ||
    trimmed.startsWith(ADD_FILE) ||
    trimmed.startsWith(DELETE_FILE) ||
    trimmed.startsWith(UPDATE_FILE)
  );
}

/** A chunk line: ` ` context, `-` removed, `+` added; an empty line is an empty context line. */
function isChunkLine(line: string): boolean {
  return line === '' || line[0] === ' ' || line[0] === '-' || line[0] === '+';
}

/**
 * Reads codex's `*** Begin Patch` envelope (docs/apply-patch.md#the-envelope). `lines` are the patch's lines (heredoc
 * already unwrapped), `offset` the number of lines before them in the text the model sent, so that every line number
 * in a message is a line of that text.
 */
export function parseEnvelope(lines: readonly string[], offset: number): ParsedPatch {
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first += 1;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  if (lines[first]?.trim() !== BEGIN_PATCH) return { ok: false, reason: envelopeReasons.firstLine };
  if (last === first || lines[last]!.trim() !== END_PATCH)
    return { ok: false, reason: envelopeReasons.lastLine };

  const sections: PatchSection[] = [];
  const lineNumber = (index: number) => index + 1 + offset;
  let at = first + 1;
  while (at < last) {
    const raw = lines[at]!;
    const header = raw.trim();
    const patchLine = lineNumber(at);
    at += 1;
    if (header === '') continue;
    if (header.startsWith(ADD_FILE)) {
      const path = header.slice(ADD_FILE.length).trim();
      const added: string[] = [];
      while (at < last && !endsBody(lines[at]!.trim())) {
        const line = lines[at]!;
        if (line.startsWith('+')) added.push(line.slice(1));
        else if (line.trim() === '') added.push('');
        else return { ok: false, reason: envelopeReasons.badHeader(lineNumber(at), line) };
        at += 1;
      }
      sections.push({ kind: 'add', path, patchLine, lines: added });
    } else if (header.startsWith(DELETE_FILE)) {
      sections.push({ kind: 'delete', path: header.slice(DELETE_FILE.length).trim(), patchLine });
    } else if (header.startsWith(UPDATE_FILE)) {
      const path = header.slice(UPDATE_FILE.length).trim();
      let moveTo: string | undefined;
      if (at < last && lines[at]!.trim().startsWith(MOVE_TO)) {
        moveTo = lines[at]!.trim().slice(MOVE_TO.length).trim();
        at += 1;
      }
      const read = readChunks(lines, at, last, path, lineNumber);
      if (!read.ok) return read;
      at = read.next;
      if (read.chunks.length === 0 && moveTo === undefined) {
        return { ok: false, reason: envelopeReasons.emptyChunk(patchLine, path) };
      }
      sections.push({ kind: 'update', path, patchLine, chunks: read.chunks, ...(moveTo ? { moveTo } : {}) });
    } else {
      return { ok: false, reason: envelopeReasons.badHeader(patchLine, raw) };
    }
  }
  return { ok: true, sections };
}

type ChunksRead = { ok: true; chunks: PatchChunk[]; next: number } | { ok: false; reason: string };

/** The chunks of one `*** Update File` section, from `at` up to the next section (or `end`). */
function readChunks(
  lines: readonly string[],
  start: number,
  end: number,
  path: string,
  lineNumber: (index: number) => number,
): ChunksRead {
  const chunks: PatchChunk[] = [];
  let at = start;
  let chunk: PatchChunk | undefined;
  // An `@@` right after another `@@ <text>` narrows the same chunk; after chunk lines it starts a new one.
  let bodyStarted = false;
  // Empty lines at the end of a chunk are taken as spacing between sections, not as empty context lines.
  let trailingBlanks = 0;
  const close = (): string | undefined => {
    if (chunk === undefined) return undefined;
    chunk.oldLines.length -= trailingBlanks;
    chunk.newLines.length -= trailingBlanks;
    chunk.newFromOld.length -= trailingBlanks;
    trailingBlanks = 0;
    if (chunk.oldLines.length === 0 && chunk.newLines.length === 0) {
      return envelopeReasons.emptyChunk(chunk.patchLine, path);
    }
    chunks.push(chunk);
    chunk = undefined;
    return undefined;
  };
  while (at < end) {
    const line = lines[at]!;
    const trimmed = line.trim();
    if (endsBody(trimmed)) break;
    if (trimmed === '@@' || trimmed.startsWith('@@ ')) {
      if (chunk === undefined || bodyStarted) {
        const problem = close();
        if (problem) return { ok: false, reason: problem };
        chunk = newChunk(lineNumber(at));
        bodyStarted = false;
      }
      trailingBlanks = 0;
      const anchor = trimmed.slice(2).trim();
      if (anchor !== '') chunk!.anchors.push(anchor);
    } else if (trimmed === END_OF_FILE) {
      if (chunk === undefined) return { ok: false, reason: envelopeReasons.badHeader(lineNumber(at), line) };
      chunk.atEndOfFile = true;
      const problem = close();
      if (problem) return { ok: false, reason: problem };
    } else if (isChunkLine(line)) {
      // The first chunk of a section may come without its `@@`.
      chunk ??= newChunk(lineNumber(at));
      bodyStarted = true;
      const text = line.slice(1);
      trailingBlanks = line === '' ? trailingBlanks + 1 : 0;
      if (line === '' || line[0] === ' ') {
        chunk.newFromOld.push(chunk.oldLines.length);
        chunk.oldLines.push(text);
        chunk.newLines.push(text);
      } else if (line[0] === '-') chunk.oldLines.push(text);
      else {
        chunk.newFromOld.push(-1);
        chunk.newLines.push(text);
      }
    } else {
      return { ok: false, reason: envelopeReasons.badHeader(lineNumber(at), line) };
    }
    at += 1;
  }
  const problem = close();
  if (problem) return { ok: false, reason: problem };
  return { ok: true, chunks, next: at };
}

function newChunk(patchLine: number): PatchChunk {
  return { patchLine, anchors: [], oldLines: [], newLines: [], newFromOld: [], atEndOfFile: false };
}
