import type { ApprovalResponse } from '@kimi-tools/core';
import { encodeText } from '@kimi-tools/core/toolkit';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ApplyPatch } from './index.js';

/** The kit's test, with `answering`: a runtime whose approval gives `answer`, and an ApplyPatch on it. */
const it = test.extend('answering', ({ workspace }) => (answer: ApprovalResponse) => {
  const approval = recordingApproval(answer);
  const runtime = workspace.runtime({ approval });
  return { approval, runtime, tool: new ApplyPatch(runtime) };
});

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

const LINES = ['start', ...Array.from({ length: 10 }, (_, index) => `line ${index + 2}`), 'end'];

/** An edit of a.txt's first and last lines (two hunks), an added, a deleted and a moved file. */
const PATCH = patch(
  '*** Update File: a.txt',
  '@@',
  '-start',
  '+START',
  '@@',
  '-end',
  '+END',
  '*** Add File: b.txt',
  '+new',
  '*** Delete File: c.txt',
  '*** Update File: d.txt',
  '*** Move to: e.txt',
  '-d',
  '+D',
);

describe('ApplyPatch: per-hunk answers', () => {
  it('offers hunks across files: an edited file cut in hunks, an added, deleted or moved one whole', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool, approval } = answering({ kind: 'reject' });
    const a = await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: runtime });
    await workspace.write('c.txt', 'c\n', { readBy: runtime });
    await workspace.write('d.txt', 'd\n', { readBy: runtime });
    await tool.call({ patch: PATCH });
    const request = approval.requests[0]!;
    expect(
      request.hunks!.map(({ id, path, oldStart, oldLines, newStart, newLines, lines }) => [
        id,
        path.slice(workspace.workDir.length + 1),
        oldStart,
        oldLines,
        newStart,
        newLines,
        lines.join('|'),
      ]),
    ).toEqual([
      ['h1', 'a.txt', 1, 4, 1, 4, '-start|+START| line 2| line 3| line 4'],
      ['h2', 'a.txt', 9, 4, 9, 4, ' line 9| line 10| line 11|-end|+END'],
      ['h3', 'b.txt', 1, 0, 1, 1, '+new'],
      ['h4', 'c.txt', 1, 1, 1, 0, '-c'],
      ['h5', 'e.txt', 1, 1, 1, 1, ''],
    ]);
    expect(request.editable!.map((file) => file.path.slice(workspace.workDir.length + 1))).toEqual([
      'a.txt',
      'b.txt',
      'e.txt',
    ]);
    expect(request.editable![0]!.proposedText()).toBe(
      `${['START', ...LINES.slice(1, 11), 'END'].join('\n')}\n`,
    );
    expect(a).toBe(workspace.at('a.txt'));
  });

  it('writes only the approved hunks: part of a CRLF file, a whole new file and a move, and keeps the rejected file', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h2', 'h3', 'h5'], feedback: 'keep c' });
    const a = await workspace.write('a.txt', `${LINES.join('\r\n')}\r\n`, { readBy: runtime });
    const c = await workspace.write('c.txt', 'c\n', { readBy: runtime });
    await workspace.write('d.txt', 'd\n', { readBy: runtime });
    const result = await tool.call({ patch: PATCH });
    expect(await workspace.read(a)).toBe(`${[...LINES.slice(0, 11), 'END'].join('\r\n')}\r\n`);
    expect(await workspace.read(workspace.at('b.txt'))).toBe('new\n');
    expect(await workspace.read(c)).toBe('c\n');
    expect(await workspace.read(workspace.at('e.txt'))).toBe('D\n');
    expect(await workspace.exists(workspace.at('d.txt'))).toBe(false);
    expect(result.message).toBe(
      [
        'Success. Updated the following files:',
        'M a.txt',
        'A b.txt',
        'R d.txt -> e.txt',
        'The user approved only part of this change: 3 of 5 hunks were written. The rejected hunks below were not written; the files keep those lines as they were. User feedback: keep c',
        `--- ${a}`,
        `+++ ${a}`,
        '@@ -1,4 +1,4 @@',
        '-start',
        '+START',
        ' line 2',
        ' line 3',
        ' line 4',
        `--- ${c}`,
        `+++ ${c}`,
        '@@ -1,1 +0,0 @@',
        '-c',
      ].join('\n'),
    );
    expect(result.output).toBe(
      'a.txt:\n     9\tline 9\n    10\tline 10\n    11\tline 11\n    12\tEND\n\nb.txt:\n     1\tnew\n\ne.txt:\n     1\tD\n',
    );
  });

  it('writes hunks of a UTF-16 file byte for byte', async ({ workspace, answering }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h1'] });
    const format = { encoding: 'utf-16le', bom: true };
    const a = await workspace.write('a.txt', encodeText(LINES.join('\n'), format), { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: a.txt', '@@', '-start', '+START', '@@', '-end', '+END'),
    });
    expect(result.isError).toBe(false);
    expect(Buffer.from(await workspace.bytes(a))).toEqual(
      Buffer.from(encodeText(['START', ...LINES.slice(1)].join('\n'), format)),
    );
  });
});

describe('ApplyPatch: edit before accept', () => {
  it('writes the user content of one file, the others as proposed', async ({ workspace, answering }) => {
    const { runtime, tool } = answering({
      kind: 'approve',
      content: { [workspace.at('b.txt')]: 'mine\r\n' },
    });
    const a = await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: runtime });
    await workspace.write('c.txt', 'c\n', { readBy: runtime });
    await workspace.write('d.txt', 'd\n', { readBy: runtime });
    const b = workspace.at('b.txt');
    const result = await tool.call({ patch: PATCH });
    expect(await workspace.read(b)).toBe('mine\r\n');
    expect(await workspace.read(a)).toBe(`${['START', ...LINES.slice(1, 11), 'END'].join('\n')}\n`);
    expect(result.message.split('\n').slice(5)).toEqual([
      "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
      'From your proposal to what was written:',
      `--- ${b}`,
      `+++ ${b}`,
      '@@ -1,1 +1,1 @@',
      '-new',
      '+mine',
    ]);
    expect(result.output).toContain('b.txt:\n     1\tmine\n');
  });

  it('refuses content for a file the patch deletes', async ({ workspace, answering }) => {
    const { runtime, tool, approval } = answering({
      kind: 'approve',
      content: { [workspace.at('c.txt')]: 'keep me' },
    });
    await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: runtime });
    const c = await workspace.write('c.txt', 'c\n', { readBy: runtime });
    await workspace.write('d.txt', 'd\n', { readBy: runtime });
    const result = await tool.call({ patch: PATCH });
    expect(result).toMatchObject({ isError: true, brief: 'Invalid approval answer' });
    expect(approval.requests[1]!.answerRefused).toBe(
      `\`${c}\` is not a file of this change that can be edited`,
    );
    expect(await workspace.read(c)).toBe('c\n');
  });
});
