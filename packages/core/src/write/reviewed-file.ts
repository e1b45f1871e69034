import type { ApprovalHunk, EditableFile } from '../approval/approval.js';
import { buildDiffView, type DiffHunk, type DiffView } from '../diff/build-diff-blocks.js';
import type { LineDiff } from '../diff/line-diff.js';
import type { DiffDisplayBlock } from '../result/tool-result.js';
import { decodeText } from '../text/codec.js';

/**
 * One file of a change as its approval shows it (docs/approval.md): its diff, the bytes before and after, and how a
 * text of the diff's new side becomes bytes when the user approves only some hunks.
 */
export interface ReviewedFile {
  /** Real path the new content goes to (a moved file's new path). */
  path: string;
  /** `edit` is cut into hunks; an added, deleted or moved file is one hunk, taken whole or not at all. */
  kind: 'add' | 'edit' | 'delete' | 'move';
  oldBytes: Uint8Array | null;
  /** `null`: the file is deleted. */
  newBytes: Uint8Array | null;
  view: DiffView;
  /** Whether the user may give their own content for it (not a deleted file). */
  editable: boolean;
  /**
   * The bytes to write when the diff's new side becomes `text` (some hunks rejected), for a diff that is not of the
   * file's own text (NotebookEdit's cell); by default the approved hunks' lines replace theirs in `oldBytes`.
   */
  bytesForText?: (text: string) => Uint8Array;
}

/**
 * The diff of a change as its approval shows it (docs/diff-blocks.md), with its hunks. A change that touches no line
 * but is a change all the same (an empty file created, a file moved as it is) is one empty block and one empty hunk
 * at `path`, when `showWhenEmpty` says so. `lines` is the change's line diff when the tool has already searched it
 * (WriteFile's snippet reuses it: one search for both).
 */
export function reviewDiff(
  path: string,
  oldText: string,
  newText: string,
  budgetMs: number,
  showWhenEmpty: boolean,
  lines?: LineDiff,
): DiffView {
  const view = buildDiffView(path, oldText, newText, { budgetMs, lines });
  if (view.blocks.length > 0 || !showWhenEmpty) return view;
  return {
    ...view,
    blocks: [{ type: 'diff', path, oldText: '', newText: '', oldStart: 1, newStart: 1, isSummary: false }],
    hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 0, lines: [] }],
  };
}

/** One hunk of a file as the answer takes it: its diff hunk, and the blocks that show it. */
export interface FileHunk {
  hunk: DiffHunk;
  blocks: DiffDisplayBlock[];
}

/**
 * The hunks a file offers: one per block, but a moved file is one hunk over both whole texts (without lines: its
 * blocks show it), taken whole like an added or deleted file (which have one block).
 */
export function fileHunks(file: ReviewedFile): FileHunk[] {
  const { view } = file;
  if (file.kind !== 'move') {
    return view.hunks.map((hunk, index) => ({ hunk, blocks: [view.blocks[index]!] }));
  }
  const { oldLines, newLines } = view.lines;
  const whole = { oldStart: 1, oldLines: oldLines.count, newStart: 1, newLines: newLines.count, lines: [] };
  return [{ hunk: whole, blocks: view.blocks }];
}

/** The proposed new content of a file as text, for a host that lets the user edit it. */
class ProposedFile implements EditableFile {
  readonly size: number;

  constructor(
    readonly path: string,
    private readonly bytes: Uint8Array,
  ) {
    this.size = bytes.length;
  }

  proposedText(): string {
    const decoded = decodeText(this.bytes);
    // A tool writes text files only, so the proposal decodes; UTF-8 stands in should it ever not.
    return decoded.ok ? decoded.decoded.raw : Buffer.from(this.bytes).toString('utf8');
  }
}

/** The id of a change's `n`th hunk (1-based), counted across its files in the order of the diff blocks. */
export function hunkId(n: number): string {
  return `h${n}`;
}

/** What the request shows of the files: every hunk with its id (`h1`, `h2`, ... across files), and the editable files. */
export function requestParts(files: readonly ReviewedFile[]): {
  hunks: ApprovalHunk[];
  editable: EditableFile[];
} {
  const hunks: ApprovalHunk[] = [];
  for (const file of files) {
    for (const { hunk } of fileHunks(file))
      hunks.push({ id: hunkId(hunks.length + 1), path: file.path, ...hunk });
  }
  const editable = files.flatMap((file) =>
    file.editable && file.newBytes !== null ? [new ProposedFile(file.path, file.newBytes)] : [],
  );
  return { hunks, editable };
}
