import { backendHas, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `tool`: a StrReplaceFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

interface Edit {
  old: string;
  new: string;
}

/** A small deterministic generator (a linear congruential one): the same edits on every run. */
function seeded(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * limit);
  };
}

function shuffled<T>(items: readonly T[], random: (limit: number) => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const LINES = 12_000;
const line = (index: number) => `row <${index}> = ${(index * 7919) % 10007};`;

/**
 * 10,000 edits of a 12,000-line file, in no particular order: 8,000 change a line's value, 1,000 of those lines are
 * changed again later (their `old` is what an earlier edit of the call wrote), 500 delete a whole line and 500 swap
 * two lines (an `old` of two lines).
 */
function manyEdits(): Edit[] {
  const random = seeded(33);
  const lines = shuffled(
    Array.from({ length: LINES }, (_, index) => index),
    random,
  );
  const changed = lines.slice(0, 8000).map((index) => ({
    old: `<${index}> = ${(index * 7919) % 10007};`,
    new: `<${index}> = ${index}; // edited`,
  }));
  const deleted = lines.slice(8000, 8500).map((index) => ({ old: `${line(index)}\n`, new: '' }));
  // Swapped pairs start at lines no other edit touches, with their next line.
  const pairStarts = lines
    .slice(8500)
    .filter((index) => index + 1 < LINES && !lines.slice(0, 8500).includes(index + 1));
  const swapped: Edit[] = [];
  const taken = new Set<number>();
  for (const index of pairStarts) {
    if (swapped.length === 500) break;
    if (taken.has(index) || taken.has(index + 1)) continue;
    taken.add(index).add(index + 1);
    swapped.push({ old: `${line(index)}\n${line(index + 1)}`, new: `${line(index + 1)}\n${line(index)}` });
  }
  const edits = shuffled([...changed, ...deleted, ...swapped], random);
  // Each second change lands somewhere after the edit whose text it changes.
  for (const first of changed.slice(0, 1000)) {
    const after = edits.indexOf(first) + 1;
    const index = Number(/<(\d+)>/.exec(first.old)?.[1]);
    const at = after + random(edits.length - after + 1);
    edits.splice(at, 0, { old: first.new, new: `<${index}> = again;` });
  }
  return edits;
}

/**
 * The edits applied one at a time to the text, each `old` checked to be there once. In place in one buffer: building
 * a new 300 kB string for each of 10,000 edits took three quarters of the test's time, the search the rest (UTF-8 is
 * self-synchronizing, so a byte search finds what a string search does).
 */
function oneByOne(text: string, edits: readonly Edit[]): string {
  const growth = edits.reduce(
    (sum, edit) => sum + Math.max(0, Buffer.byteLength(edit.new) - Buffer.byteLength(edit.old)),
    0,
  );
  const buffer = Buffer.alloc(Buffer.byteLength(text) + growth);
  let length = buffer.write(text);
  for (const edit of edits) {
    const current = buffer.subarray(0, length);
    const old = Buffer.from(edit.old);
    const at = current.indexOf(old);
    if (at === -1 || current.indexOf(old, at + 1) !== -1) throw new Error(`not unique: ${edit.old}`);
    const replacement = Buffer.from(edit.new);
    buffer.copyWithin(at + replacement.length, at + old.length, length);
    replacement.copy(buffer, at);
    length += replacement.length - old.length;
  }
  return buffer.toString('utf8', 0, length);
}

describe.runIf(backendHas('slow'))('many edits in one call', () => {
  const original = `${Array.from({ length: LINES }, (_, index) => line(index)).join('\n')}\n`;

  it('applies 10,000 edits of a 12,000-line file as 10,000 single edits would', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const edits = manyEdits();
    expect(edits).toHaveLength(10_000);
    const file = await workspace.write('many.txt', original, { readBy: runtime });
    const result = await tool.call({ path: file, edit: edits });
    expect(result.message).toBe(
      'File successfully edited. Applied 10000 edit(s) with 10000 total replacement(s). The output is cut at 8192 ' +
        'bytes: read lines 273-11500 for the rest.',
    );
    expect(Buffer.from(await workspace.bytes(file)).equals(Buffer.from(oneByOne(original, edits)))).toBe(
      true,
    );
  }, 60_000);

  it('applies the 9,000 edits within a line the same way to a CRLF file', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const edits = manyEdits().filter((edit) => !/\n/.test(edit.old + edit.new));
    expect(edits).toHaveLength(9000);
    const file = await workspace.write('many-crlf.txt', original.replaceAll('\n', '\r\n'), {
      readBy: runtime,
    });
    const result = await tool.call({ path: file, edit: edits });
    expect(result.message).toBe(
      'File successfully edited. Applied 9000 edit(s) with 9000 total replacement(s). The output is cut at 8192 ' +
        'bytes: read lines 276-12000 for the rest.',
    );
    const expected = oneByOne(original, edits).replaceAll('\n', '\r\n');
    expect(Buffer.from(await workspace.bytes(file)).equals(Buffer.from(expected))).toBe(true);
  }, 60_000);
});
