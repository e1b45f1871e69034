import type { ApprovalResponse } from '@kimi-tools/core';
import { encodeText } from '@kimi-tools/core/toolkit';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { NotebookEdit } from './index.js';

/** The kit's test, with `answering`: a runtime whose approval gives `answer`, and a NotebookEdit on it. */
const it = test.extend('answering', ({ workspace }) => (answer: ApprovalResponse) => {
  const approval = recordingApproval(answer);
  const runtime = workspace.runtime({ approval });
  return { approval, runtime, tool: new NotebookEdit(runtime) };
});

const SOURCE = Array.from({ length: 12 }, (_, index) => `x${index + 1} = ${index + 1}`);

/** A source as nbformat stores it: a list of lines, each but the last with its `\n`. */
function sourceList(lines: readonly string[]): string[] {
  return lines.map((line, index) => (index < lines.length - 1 ? `${line}\n` : line));
}

/** A notebook of one markdown and one code cell, as nbformat writes it, with `ending` line breaks. */
function notebookText(cellType: 'code' | 'markdown', source: readonly string[], ending = '\n'): string {
  const cell =
    cellType === 'code'
      ? {
          cell_type: 'code',
          execution_count: null,
          id: 'b',
          metadata: {},
          outputs: [],
          source: sourceList(source),
        }
      : { cell_type: 'markdown', id: 'b', metadata: {}, source: sourceList(source) };
  const document = {
    cells: [{ cell_type: 'markdown', id: 'a', metadata: {}, source: ['# Title'] }, cell],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
  return `${JSON.stringify(document, null, 1)}\n`.replace(/\n/g, ending);
}

describe('NotebookEdit: per-hunk answers', () => {
  it.for([
    ['CRLF UTF-8', '\r\n', 'utf-8', false, 'h1'],
    ['LF UTF-16LE with a BOM', '\n', 'utf-16le', true, 'h2'],
  ] as const)(
    "writes only the approved hunk of the cell's source in a %s notebook, every other byte as it was",
    async ([, ending, encoding, bom, hunk], { workspace, answering }) => {
      const { runtime, tool, approval } = answering({ kind: 'approve', hunks: [hunk] });
      const format = { encoding, bom };
      const file = await workspace.write(
        'nb.ipynb',
        encodeText(notebookText('code', SOURCE, ending), format),
        {
          readBy: runtime,
        },
      );
      const changed = ['X1 = 1', ...SOURCE.slice(1, 11), 'X12 = 12'];
      const result = await tool.call({
        notebook_path: 'nb.ipynb',
        cell_id: 'b',
        new_source: changed.join('\n'),
      });
      // Line 1 of the diff is the cell's header: the first source line is line 2.
      expect(approval.requests[0]!.hunks!.map((each) => [each.id, each.oldStart, each.lines[1]])).toEqual([
        ['h1', 1, '-x1 = 1'],
        ['h2', 10, ' x10 = 10'],
      ]);
      const kept = hunk === 'h1' ? ['X1 = 1', ...SOURCE.slice(1)] : [...SOURCE.slice(0, 11), 'X12 = 12'];
      expect(Buffer.from(await workspace.bytes(file))).toEqual(
        Buffer.from(encodeText(notebookText('code', kept, ending), format)),
      );
      expect(result.message.split('\n')[0]).toBe(
        'Replaced cell b (code). Its outputs and execution count were cleared.',
      );
      expect(result.message.split('\n')[1]).toBe(
        'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were.',
      );
      // The output is the cell as written.
      expect(result.output).toBe(
        [
          '     4\t=== cell b (code, not executed) ===',
          ...kept.map((line, at) => `${String(at + 5).padStart(6)}\t${line}`),
        ].join('\n'),
      );
    },
  );

  it("keeps the cell's type when its new header is rejected", async ({ workspace, answering }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h2'] });
    const file = await workspace.write('nb.ipynb', notebookText('code', SOURCE), { readBy: runtime });
    const changed = [...SOURCE.slice(0, 11), 'X12 = 12'];
    const result = await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: changed.join('\n'),
      cell_type: 'markdown',
    });
    expect(result.isError).toBe(false);
    expect(await workspace.read(file)).toBe(notebookText('code', changed));
  });

  it("takes the cell's new type with its header alone", async ({ workspace, answering }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h1'] });
    const file = await workspace.write('nb.ipynb', notebookText('code', SOURCE), { readBy: runtime });
    await tool.call({
      notebook_path: 'nb.ipynb',
      cell_id: 'b',
      new_source: [...SOURCE.slice(0, 11), 'X12 = 12'].join('\n'),
      cell_type: 'markdown',
    });
    expect(await workspace.read(file)).toBe(notebookText('markdown', SOURCE));
  });
});

describe('NotebookEdit: edit before accept', () => {
  it('offers the whole notebook, and writes the user text in its line endings', async ({
    workspace,
    answering,
  }) => {
    const mine = notebookText('code', ['mine = True']);
    const { runtime, tool, approval } = answering({ kind: 'approve', content: mine });
    const file = await workspace.write('nb.ipynb', notebookText('code', SOURCE, '\r\n'), { readBy: runtime });
    const result = await tool.call({ notebook_path: 'nb.ipynb', cell_id: 'b', new_source: 'theirs = True' });
    expect(approval.requests[0]!.editable![0]!.proposedText()).toBe(
      notebookText('code', ['theirs = True'], '\r\n'),
    );
    expect(await workspace.read(file)).toBe(mine.replace(/\n/g, '\r\n'));
    expect(result.output).toBe('     4\t=== cell b (code, not executed) ===\n     5\tmine = True');
    expect(result.message.split('\n').slice(1, 3)).toEqual([
      "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
      'From your proposal to what was written:',
    ]);
  });
});
