import { shownPatchPath } from '../shown-name.js';
import { DEV_NULL, headerPaths, readHeaderPath, toolPath } from './header-path.js';
import type { ParsedPatch, PatchChunk, PatchSection } from './patch-types.js';

const HUNK_HEADER = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+/;

/** The reasons a unified diff is refused (each becomes `Invalid patch: {reason}`), a path shown as every message shows one. */
export const unifiedReasons = {
  binary: (line: number, path: string) =>
    `line ${line}: '${shownPatchPath(path)}' is a binary patch; ApplyPatch changes text files only.`,
  modeOnly: (line: number, path: string) =>
    `line ${line}: '${shownPatchPath(path)}' changes only the file mode; ApplyPatch changes the content of files, not their modes.`,
  noHunks: (line: number, path: string) => `line ${line}: the chunk for '${shownPatchPath(path)}' is empty.`,
};

/** Whether the text reads as a unified diff: a `diff --git` line, or a `--- ` line followed by a `+++ ` line. */
export function looksUnified(lines: readonly string[]): boolean {
  return lines.some(
    (line, index) =>
      line.startsWith('diff --git ') || (line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ')),
  );
}

/** One file of the diff as it is being read. */
interface FileRecord {
  patchLine: number;
  oldPath?: string;
  newPath?: string;
  renameFrom?: string;
  renameTo?: string;
  modeChange: boolean;
  chunks: PatchChunk[];
}

/** Whether the line starts the next file: a `diff --git` line, or a `---` line with a `+++` line after it. */
function startsFile(lines: readonly string[], index: number): boolean {
  const line = lines[index]!;
  return (
    line.startsWith('diff --git ') ||
    (line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ') === true)
  );
}

/**
 * Reads unified diffs as `git diff` and `diff -u` print them, several files in one text (docs/apply-patch.md#unified-diffs).
 * Hunk counts are not trusted (models get them wrong): a hunk runs while its lines are hunk lines. Text outside the
 * files (a commit message, `index` lines) is skipped.
 */
export function parseUnified(lines: readonly string[], offset: number): ParsedPatch {
  const sections: PatchSection[] = [];
  const lineNumber = (index: number) => index + 1 + offset;
  let record: FileRecord | undefined;
  const finish = (): string | undefined => {
    if (record === undefined) return undefined;
    const made = sectionOf(record);
    record = undefined;
    if (typeof made === 'string') return made;
    sections.push(made);
    return undefined;
  };
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    if (line.startsWith('diff --git ')) {
      const problem = finish();
      if (problem) return { ok: false, reason: problem };
      record = { patchLine: lineNumber(at), modeChange: false, chunks: [] };
      const paths = /^diff --git (\S+) (\S+)$/.exec(line);
      if (paths)
        [record.oldPath, record.newPath] = headerPaths(readHeaderPath(paths[1]!), readHeaderPath(paths[2]!));
      at += 1;
      continue;
    }
    if (line.startsWith('--- ') && lines[at + 1]?.startsWith('+++ ')) {
      // A `---` line of its own starts a file; after `diff --git` it belongs to that file.
      if (record === undefined || record.chunks.length > 0) {
        const problem = finish();
        if (problem) return { ok: false, reason: problem };
        record = { patchLine: lineNumber(at), modeChange: false, chunks: [] };
      }
      const [oldPath, newPath] = headerPaths(
        readHeaderPath(line.slice(4)),
        readHeaderPath(lines[at + 1]!.slice(4)),
      );
      record.oldPath = oldPath;
      record.newPath = newPath;
      at += 2;
      continue;
    }
    if (record !== undefined) {
      if (
        line.startsWith('GIT binary patch') ||
        (line.startsWith('Binary files ') && line.endsWith(' differ'))
      ) {
        return {
          ok: false,
          reason: unifiedReasons.binary(lineNumber(at), record.newPath ?? record.oldPath ?? ''),
        };
      }
      if (/^(old|new) mode /.test(line)) record.modeChange = true;
      else if (line.startsWith('rename from '))
        record.renameFrom = toolPath(readHeaderPath(line.slice('rename from '.length)));
      else if (line.startsWith('rename to '))
        record.renameTo = toolPath(readHeaderPath(line.slice('rename to '.length)));
      else if (line.startsWith('new file mode ')) record.oldPath = DEV_NULL;
      else if (line.startsWith('deleted file mode ')) record.newPath = DEV_NULL;
      const header = HUNK_HEADER.exec(line);
      if (header) {
        at = readHunk(lines, at, header, record, lineNumber);
        continue;
      }
    }
    at += 1;
  }
  const problem = finish();
  if (problem) return { ok: false, reason: problem };
  return { ok: true, sections };
}

/** Reads one hunk starting at its header line; returns the index of the line after it. */
function readHunk(
  lines: readonly string[],
  headerIndex: number,
  header: RegExpExecArray,
  record: FileRecord,
  lineNumber: (index: number) => number,
): number {
  const chunk: PatchChunk = {
    patchLine: lineNumber(headerIndex),
    anchors: [],
    oldLines: [],
    newLines: [],
    newFromOld: [],
    atEndOfFile: false,
    hintLine: Number(header[1]),
  };
  let at = headerIndex + 1;
  let lastSide: 'old' | 'new' | 'both' = 'both';
  for (; at < lines.length; at += 1) {
    const line = lines[at]!;
    if (startsFile(lines, at) || HUNK_HEADER.test(line)) break;
    if (line.startsWith('\\')) {
      // `\ No newline at end of file`: the line before it ends its side(s) without a line break.
      if (lastSide !== 'new') chunk.oldEndsWithoutNewline = true;
      if (lastSide !== 'old') chunk.newEndsWithoutNewline = true;
      continue;
    }
    if (line === '' || line[0] === ' ') {
      chunk.newFromOld.push(chunk.oldLines.length);
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
      lastSide = 'both';
    } else if (line[0] === '-') {
      chunk.oldLines.push(line.slice(1));
      lastSide = 'old';
    } else if (line[0] === '+') {
      chunk.newFromOld.push(-1);
      chunk.newLines.push(line.slice(1));
      lastSide = 'new';
    } else break;
  }
  // Empty lines after the last hunk line are spacing, not context.
  while (
    at > headerIndex + 1 &&
    lines[at - 1] === '' &&
    chunk.oldLines.at(-1) === '' &&
    chunk.newLines.at(-1) === ''
  ) {
    chunk.oldLines.pop();
    chunk.newLines.pop();
    chunk.newFromOld.pop();
    at -= 1;
  }
  record.chunks.push(chunk);
  return at;
}

/** The section one file record makes, or why it cannot be applied. */
function sectionOf(record: FileRecord): PatchSection | string {
  const oldPath = record.renameFrom ?? record.oldPath;
  const newPath = record.renameTo ?? record.newPath;
  const shown = newPath !== undefined && newPath !== DEV_NULL ? newPath : (oldPath ?? '');
  if (oldPath === undefined || newPath === undefined) return unifiedReasons.noHunks(record.patchLine, shown);
  if (oldPath === DEV_NULL) {
    const lines = record.chunks.flatMap((chunk) => chunk.newLines);
    const endsWithoutNewline = record.chunks.at(-1)?.newEndsWithoutNewline === true;
    return {
      kind: 'add',
      path: newPath,
      patchLine: record.patchLine,
      lines,
      ...(endsWithoutNewline ? { endsWithoutNewline } : {}),
    };
  }
  if (newPath === DEV_NULL) return { kind: 'delete', path: oldPath, patchLine: record.patchLine };
  const moved = newPath !== oldPath;
  if (record.chunks.length === 0) {
    if (moved)
      return { kind: 'update', path: oldPath, patchLine: record.patchLine, moveTo: newPath, chunks: [] };
    return record.modeChange
      ? unifiedReasons.modeOnly(record.patchLine, shown)
      : unifiedReasons.noHunks(record.patchLine, shown);
  }
  return {
    kind: 'update',
    path: oldPath,
    patchLine: record.patchLine,
    chunks: record.chunks,
    ...(moved ? { moveTo: newPath } : {}),
  };
}
