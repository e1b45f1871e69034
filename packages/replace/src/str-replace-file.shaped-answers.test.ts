import type { ApprovalResponse } from '@kimi-tools/core';
import { encodeText } from '@kimi-tools/core/toolkit';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const LINES = ['start', ...Array.from({ length: 10 }, (_, index) => `line ${index + 2}`), 'end'];
/** Two edits, of the first and the last line: two hunks, at the start and the end of the file. */
const EDITS = [
  { old: 'start', new: 'START' },
  { old: 'end', new: 'END' },
];

/** The kit's test, with `answering`: a runtime whose approval gives `answer`, and a StrReplaceFile on it. */
const it = test.extend(
  'answering',
  ({ workspace }) =>
    (answer: ApprovalResponse | (() => ApprovalResponse), options: { streamAboveBytes?: number } = {}) => {
      const approval = recordingApproval(answer);
      const runtime = workspace.runtime({ approval });
      return { approval, runtime, tool: new StrReplaceFile(runtime, options) };
    },
);

describe('StrReplaceFile: per-hunk answers', () => {
  it.for([
    ['CRLF UTF-8', '\r\n', 'utf-8', false, 'h1'],
    ['CRLF UTF-16BE with a BOM', '\r\n', 'utf-16be', true, 'h1'],
    ['LF UTF-16LE with a BOM', '\n', 'utf-16le', true, 'h2'],
  ] as const)(
    'writes only the approved hunk of a %s file, every other byte as it was',
    async ([, ending, encoding, bom, hunk], { workspace, answering }) => {
      const { runtime, tool } = answering({ kind: 'approve', hunks: [hunk], feedback: 'one at a time' });
      const format = { encoding, bom };
      // No final newline: it stays absent.
      const file = await workspace.write('a.txt', encodeText(LINES.join(ending), format), {
        readBy: runtime,
      });
      const result = await tool.call({ path: 'a.txt', edit: EDITS });
      const kept = hunk === 'h1' ? ['START', ...LINES.slice(1)] : [...LINES.slice(0, 11), 'END'];
      expect(Buffer.from(await workspace.bytes(file))).toEqual(
        Buffer.from(encodeText(kept.join(ending), format)),
      );
      const rejected =
        hunk === 'h1'
          ? ['@@ -9,4 +9,4 @@', ' line 9', ' line 10', ' line 11', '-end', '+END']
          : ['@@ -1,4 +1,4 @@', '-start', '+START', ' line 2', ' line 3', ' line 4'];
      expect(result.message).toBe(
        [
          'File successfully edited. Matched 2 edit(s) with 2 total replacement(s); only part of the change was written.',
          'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were. User feedback: one at a time',
          `--- ${file}`,
          `+++ ${file}`,
          ...rejected,
        ].join('\n'),
      );
      expect(result.output).toBe(
        hunk === 'h1'
          ? '     1\tSTART\n     2\tline 2\n     3\tline 3\n     4\tline 4\n'
          : '     9\tline 9\n    10\tline 10\n    11\tline 11\n    12\tEND',
      );
    },
  );

  it('takes a repeat of an approved edit for a replay, and applies a rejected one when sent again', async ({
    workspace,
    answering,
  }) => {
    let answer: ApprovalResponse = { kind: 'approve', hunks: ['h2'] };
    const { runtime, tool } = answering(() => answer);
    const file = await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: runtime });
    await tool.call({ path: 'a.txt', edit: EDITS });
    answer = { kind: 'approve' };
    const replay = await tool.call({ path: 'a.txt', edit: EDITS[1] });
    expect(replay.message).toMatch(/^File unchanged: the edit\(s\) were already applied by an earlier call/);
    const again = await tool.call({ path: 'a.txt', edit: EDITS[0] });
    expect(again.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await workspace.read(file)).toBe(`${CHANGED_BOTH.join('\n')}\n`);
  });

  it('offers a streamed edit whole: no hunks and no content to edit', async ({ workspace, answering }) => {
    const { runtime, tool, approval } = answering(
      (() => {
        const answers: ApprovalResponse[] = [
          { kind: 'approve', hunks: ['h1'] },
          { kind: 'approve', content: 'mine' },
          { kind: 'approve', feedback: 'fine' },
        ];
        return () => answers.shift()!;
      })(),
      { streamAboveBytes: 1 },
    );
    const file = await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: runtime });
    const result = await tool.call({ path: 'a.txt', edit: EDITS[1] });
    expect(
      approval.requests.map((request) => [request.hunks, request.editable, request.answerRefused]),
    ).toEqual([
      [undefined, undefined, undefined],
      [undefined, undefined, '"h1" is not a hunk of this change (it has none)'],
      [undefined, undefined, 'no file of this change can be edited'],
    ]);
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).\nUser feedback: fine',
    );
    expect(await workspace.read(file)).toBe(`${[...LINES.slice(0, 11), 'END'].join('\n')}\n`);
  });
});

const CHANGED_BOTH = ['START', ...LINES.slice(1, 11), 'END'];

describe('StrReplaceFile: edit before accept', () => {
  it('writes the user text in the file encoding and line endings, and shows the model the difference', async ({
    workspace,
    answering,
  }) => {
    const format = { encoding: 'utf-16le', bom: true };
    const { runtime, tool } = answering({ kind: 'approve', content: 'alpha\nBETA, said the user\n' });
    const file = await workspace.write('a.txt', encodeText('alpha\r\nbeta\r\n', format), { readBy: runtime });
    const result = await tool.call({ path: 'a.txt', edit: { old: 'beta', new: 'BETA' } });
    expect(Buffer.from(await workspace.bytes(file))).toEqual(
      Buffer.from(encodeText('alpha\r\nBETA, said the user\r\n', format)),
    );
    // The edit was applied to the proposal, which the user then rewrote: the note below says so.
    expect(result.message.split('\n')[0]).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).',
    );
    expect(result.message.split('\n').slice(2)).toEqual([
      'From your proposal to what was written:',
      `--- ${file}`,
      `+++ ${file}`,
      '@@ -1,2 +1,2 @@',
      ' alpha',
      '-BETA',
      '+BETA, said the user',
    ]);
    expect(result.output).toBe('     1\talpha\n     2\tBETA, said the user\n');
  });
});
