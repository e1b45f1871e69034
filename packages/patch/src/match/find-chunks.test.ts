import { describe, expect, it } from 'vitest';
import type { PatchChunk } from '../parse/patch-types.js';
import { chunkReplacements } from './apply-chunks.js';
import { FileLines } from './file-lines.js';
import { placeChunks } from './find-chunks.js';

const chunk = (oldLines: string[], newLines: string[], extra: Partial<PatchChunk> = {}): PatchChunk => ({
  patchLine: 1,
  anchors: [],
  oldLines,
  newLines,
  newFromOld: newLines.map(() => -1),
  atEndOfFile: false,
  ...extra,
});

/** The text after placing and applying `chunks` (throws when they do not place). */
function applied(text: string, chunks: PatchChunk[]): string {
  const file = new FileLines(text);
  const placement = placeChunks(file, chunks);
  if (!placement.ok) throw new Error(JSON.stringify(placement.failure));
  let result = '';
  let cut = 0;
  for (const replacement of chunkReplacements(file, chunks, placement.places)) {
    result += text.slice(cut, replacement.start) + replacement.text;
    cut = replacement.end;
  }
  return result + text.slice(cut);
}

describe('placeChunks', () => {
  it('places chunks in order, each after the previous one', () => {
    const text = 'a\nx\nb\nx\nc\n';
    expect(applied(text, [chunk(['a', 'x'], ['a', 'X1']), chunk(['x'], ['X2'])])).toBe('a\nX1\nb\nX2\nc\n');
  });

  it('refuses a chunk that matches several places, naming their lines', () => {
    const file = new FileLines('f()\nreturn 1\ng()\nreturn 1\n');
    expect(placeChunks(file, [chunk(['return 1'], ['return 2'])])).toEqual({
      ok: false,
      failure: { kind: 'ambiguous', chunk: 1, lines: [2, 4], count: 2 },
      replayed: false,
    });
  });

  it('takes the first place after an anchor, and anchors narrow in turn', () => {
    const text = 'class A\n  def f\n    return 1\nclass B\n  def f\n    return 1\n';
    const anchored = chunk(['    return 1'], ['    return 2'], { anchors: ['class B', 'def f'] });
    expect(applied(text, [anchored])).toBe(
      'class A\n  def f\n    return 1\nclass B\n  def f\n    return 2\n',
    );
  });

  it("picks among several places the one a unified diff's hunk line names", () => {
    const text = 'x\ny\nx\ny\n';
    expect(applied(text, [chunk(['x'], ['z'], { hintLine: 3 })])).toBe('x\ny\nz\ny\n');
  });

  it('tries looser levels only where exact finds nothing, and reports the level', () => {
    const file = new FileLines('  value = “quoted” — done  \nvalue = 1\n');
    const placement = placeChunks(file, [chunk(['value = "quoted" - done'], ['value = 2'])]);
    expect(placement).toEqual({ ok: true, places: [{ start: 0, count: 1, level: 'punctuation' }] });
    const trailing = placeChunks(new FileLines('a  \nb\n'), [chunk(['a'], ['c'])]);
    expect(trailing.ok && trailing.places[0]?.level).toBe('trailing-whitespace');
  });

  it('anchors a chunk at the end of the file with *** End of File', () => {
    const text = 'end\nmiddle\nend\n';
    expect(applied(text, [chunk(['end'], ['END'], { atEndOfFile: true })])).toBe('end\nmiddle\nEND\n');
  });

  it('says which line did not match and where the closest text is; knows a chunk already applied', () => {
    const file = new FileLines('function total(items) {\n  return items.length;\n}\n');
    const placement = placeChunks(file, [
      chunk(['function total(items) {', '  return items.size;'], ['function total(items) {', '  return 0;']),
    ]);
    expect(placement).toMatchObject({
      ok: false,
      failure: { kind: 'not-found', chunk: 1, line: '  return items.size;', closest: { line: 1 } },
      replayed: false,
    });
    const replay = placeChunks(file, [chunk(['  return items.count;'], ['  return items.length;'])]);
    expect(replay).toMatchObject({ ok: false, replayed: true });
  });
});

describe('chunkReplacements: the final line break', () => {
  it('keeps a file without a final line break without one, and adds lines after its last line', () => {
    expect(applied('a\nb', [chunk(['b'], ['B'])])).toBe('a\nB');
    expect(applied('a\nb', [chunk([], ['c'])])).toBe('a\nb\nc');
    expect(applied('a\nb\n', [chunk([], ['c'])])).toBe('a\nb\nc\n');
  });

  it('follows the no-newline marks of a unified diff at the end of the file', () => {
    expect(applied('a\nb\n', [chunk(['b'], ['b'], { newEndsWithoutNewline: true })])).toBe('a\nb');
    expect(applied('a\nb', [chunk(['b'], ['b'], { oldEndsWithoutNewline: true })])).toBe('a\nb\n');
  });

  it('removes lines up to the end of a file', () => {
    expect(applied('a\nb\nc\n', [chunk(['b', 'c'], [])])).toBe('a\n');
    expect(applied('a\nb\nc', [chunk(['b', 'c'], [])])).toBe('a');
  });

  it('stays linear: 5,000 chunks over 100,000 lines place quickly and correctly', () => {
    const lines = Array.from({ length: 100_000 }, (_, index) => `line ${index}`);
    const chunks = Array.from({ length: 5000 }, (_, index) =>
      chunk([`line ${index * 20}`, `line ${index * 20 + 1}`], [`line ${index * 20}`, `changed ${index}`]),
    );
    const result = applied(`${lines.join('\n')}\n`, chunks);
    expect(result.split('\n')[1]).toBe('changed 0');
    expect(result.split('\n')[99_981]).toBe('changed 4999');
  });
});
