import { LINE_LEVELS, normalizeLine, type LineLevel } from './line-levels.js';

/** One level's view of the file: its lines as that level compares them, and where each distinct line stands. */
interface LevelView {
  lines: string[];
  /** Normalised line → its 0-based line numbers, ascending. */
  positions: Map<string, number[]>;
}

/** Places of a chunk's first line examined at most when {@link FileLines.longestPrefix} words a failure. */
const PREFIX_CANDIDATES = 10_000;

/** The first index of `sorted` holding a value ≥ `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A file's lines (of its `\n`-normalised text), with an index per matching level made on first use, so that a run
 * of lines is found by looking only where its rarest line stands: one pass over the file per level, then about the
 * chunk's own length per chunk, whatever the number of chunks (a 5,000-chunk patch stays linear).
 */
export class FileLines {
  /** The lines, without their line breaks; a final line break ends the last line (no empty line after it). */
  readonly lines: string[];
  /** Whether the text ends with a line break (an empty text counts as ending with one). */
  readonly endsWithNewline: boolean;
  /** Offset in the text where each line starts, and the text's length after the last. */
  readonly starts: number[];
  private readonly views = new Map<LineLevel, LevelView>();

  constructor(readonly text: string) {
    this.endsWithNewline = text === '' || text.endsWith('\n');
    this.lines = text === '' ? [] : (this.endsWithNewline ? text.slice(0, -1) : text).split('\n');
    this.starts = new Array<number>(this.lines.length + 1);
    let at = 0;
    this.lines.forEach((line, index) => {
      this.starts[index] = at;
      at += line.length + 1;
    });
    this.starts[this.lines.length] = text.length;
  }

  /** The start lines of every place at or after `from` where `run` stands at `level`, ascending. */
  findRun(run: readonly string[], level: LineLevel, from: number): number[] {
    const view = this.view(level);
    const normalize = normalizeLine[level];
    const wanted = run.map(normalize);
    // The rarest line of the run (after `from`) is where the run is looked for.
    let key = -1;
    let keyPositions: number[] = [];
    let keyFirst = 0;
    for (let index = 0; index < wanted.length; index += 1) {
      const positions = view.positions.get(wanted[index]!);
      if (positions === undefined) return [];
      const first = lowerBound(positions, from + index);
      if (key === -1 || positions.length - first < keyPositions.length - keyFirst) {
        [key, keyPositions, keyFirst] = [index, positions, first];
      }
    }
    const found: number[] = [];
    for (let at = keyFirst; at < keyPositions.length; at += 1) {
      const start = keyPositions[at]! - key;
      if (start + wanted.length > view.lines.length) break;
      if (this.holdsAt(view.lines, wanted, start)) found.push(start);
    }
    return found;
  }

  /** Whether `run` stands at line `start` at `level`. */
  runAt(run: readonly string[], level: LineLevel, start: number): boolean {
    if (start < 0 || start + run.length > this.lines.length) return false;
    return this.holdsAt(this.view(level).lines, run.map(normalizeLine[level]), start);
  }

  /**
   * The longest prefix of `run` that stands somewhere at or after `from` at the loosest level, looked for at the first
   * {@link PREFIX_CANDIDATES} places its first line stands: it only words an error, and a file of a million equal lines
   * must not make that cost a million comparisons per line of the chunk.
   */
  longestPrefix(run: readonly string[], from: number): number {
    const loosest = LINE_LEVELS[LINE_LEVELS.length - 1]!;
    const view = this.view(loosest);
    const wanted = run.map(normalizeLine[loosest]);
    const positions = view.positions.get(wanted[0] ?? '') ?? [];
    let best = 0;
    const first = lowerBound(positions, from);
    const last = Math.min(positions.length, first + PREFIX_CANDIDATES);
    for (let at = first; at < last && best < wanted.length; at += 1) {
      let length = 0;
      const start = positions[at]!;
      while (length < wanted.length && view.lines[start + length] === wanted[length]) length += 1;
      best = Math.max(best, length);
    }
    return best;
  }

  private holdsAt(lines: readonly string[], wanted: readonly string[], start: number): boolean {
    for (let index = 0; index < wanted.length; index += 1) {
      if (lines[start + index] !== wanted[index]) return false;
    }
    return true;
  }

  private view(level: LineLevel): LevelView {
    let view = this.views.get(level);
    if (view === undefined) {
      const lines = level === 'exact' ? this.lines : this.lines.map(normalizeLine[level]);
      const positions = new Map<string, number[]>();
      lines.forEach((line, index) => {
        const list = positions.get(line);
        if (list === undefined) positions.set(line, [index]);
        else list.push(index);
      });
      view = { lines, positions };
      this.views.set(level, view);
    }
    return view;
  }
}
