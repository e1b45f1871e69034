import { DiffLines, sharedEdges, type SharedEdges } from './diff-lines.js';
import { computeLineRuns, type LineRun, type SearchClock } from './line-runs.js';

/**
 * The line diff of two '\n'-normalised texts, worked out once for everyone who needs it: the approval's diff blocks
 * and a tool's snippet of the changed lines ask the same question of the same texts (on two 5 MB texts of long lines
 * the search was made twice, one budget each). Lines are cut and the search runs on first use, within `budgetMs`.
 */
export class LineDiff {
  private lines: [DiffLines, DiffLines] | undefined;
  private edges: SharedEdges | undefined;
  private searched: { runs: LineRun[] | undefined } | undefined;
  /** When the search ran and whether it gave up (filled in by the search, for `DiffTiming`). */
  readonly clock: SearchClock = {};

  constructor(
    readonly oldText: string,
    readonly newText: string,
    readonly budgetMs: number,
  ) {}

  /** Whether this is the diff of these very texts. */
  isOf(oldText: string, newText: string): boolean {
    return this.oldText === oldText && this.newText === newText;
  }

  /** The old text's lines. */
  get oldLines(): DiffLines {
    return this.sides()[0];
  }

  /** The new text's lines. */
  get newLines(): DiffLines {
    return this.sides()[1];
  }

  /** The lines the texts share at their start and, apart from those, at their end. */
  get shared(): SharedEdges {
    this.edges ??= sharedEdges(this.oldLines, this.newLines);
    return this.edges;
  }

  /** The runs turning the old lines into the new ones, or `undefined` when the search ran out of its budget. */
  get runs(): LineRun[] | undefined {
    this.searched ??= {
      runs: computeLineRuns(this.oldLines, this.newLines, this.budgetMs, this.clock, this.shared),
    };
    return this.searched.runs;
  }

  private sides(): [DiffLines, DiffLines] {
    this.lines ??= [new DiffLines(this.oldText), new DiffLines(this.newText)];
    return this.lines;
  }
}
