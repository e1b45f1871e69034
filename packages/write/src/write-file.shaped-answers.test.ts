import { type ApprovalResponse } from '@kimi-tools/core';
import { encodeText } from '@kimi-tools/core/toolkit';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
/** The lines with the first and the last changed: two hunks, at the start and the end of the file. */
const CHANGED = ['LINE 1', ...LINES.slice(1, 11), 'LINE 12'];

/** The kit's test, with `answer`: a runtime whose approval gives this answer, its requests, and a WriteFile on it. */
const it = test.extend('answering', ({ workspace }) => (answer: ApprovalResponse) => {
  const approval = recordingApproval(answer);
  const runtime = workspace.runtime({ approval });
  return { approval, runtime, tool: new WriteFile(runtime) };
});

describe('WriteFile: per-hunk answers', () => {
  it.for([
    ['CRLF UTF-8', '\r\n', 'utf-8', false],
    ['LF UTF-16LE with a BOM', '\n', 'utf-16le', true],
  ] as const)(
    'writes only the last hunk of an overwrite of a %s file, every other byte as it was',
    async ([, ending, encoding, bom], { workspace, answering }) => {
      const { runtime, tool, approval } = answering({ kind: 'approve', hunks: ['h2'] });
      const file = await workspace.write(
        'a.txt',
        encodeText(`${LINES.join(ending)}${ending}`, { encoding, bom }),
        {
          readBy: runtime,
        },
      );
      const result = await tool.call({ path: 'a.txt', content: `${CHANGED.join('\n')}\n` });
      expect(approval.requests[0]!.hunks!.map((hunk) => [hunk.id, hunk.oldStart, hunk.lines[0]])).toEqual([
        ['h1', 1, '-line 1'],
        ['h2', 9, ' line 9'],
      ]);
      const expected = encodeText(`${[...LINES.slice(0, 11), 'LINE 12'].join(ending)}${ending}`, {
        encoding,
        bom,
      });
      expect(Buffer.from(await workspace.bytes(file))).toEqual(Buffer.from(expected));
      expect(result.isError).toBe(false);
      expect(result.message).toBe(
        [
          `File successfully overwritten. Current size: ${expected.length} bytes.`,
          'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were.',
          `--- ${file}`,
          `+++ ${file}`,
          '@@ -1,4 +1,4 @@',
          '-line 1',
          '+LINE 1',
          ' line 2',
          ' line 3',
          ' line 4',
        ].join('\n'),
      );
      // The snippet shows the file as written: its one changed place.
      expect(result.output).toBe('     9\tline 9\n    10\tline 10\n    11\tline 11\n    12\tLINE 12\n');
      expect(result.extras).toEqual({ created: false, bytes: expected.length });
      // The read state holds what was written: the next overwrite needs no new read.
      expect(await runtime.fileState.check(file)).toBe('ok');
    },
  );

  it('writes only the first hunk of a CRLF UTF-16BE file: its byte order mark stays before the new line', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h1'] });
    const format = { encoding: 'utf-16be', bom: true };
    const file = await workspace.write('a.txt', encodeText(`${LINES.join('\r\n')}\r\n`, format), {
      readBy: runtime,
    });
    const result = await tool.call({ path: 'a.txt', content: `${CHANGED.join('\n')}\n` });
    expect(result.isError).toBe(false);
    expect(Buffer.from(await workspace.bytes(file))).toEqual(
      Buffer.from(encodeText(`${['LINE 1', ...LINES.slice(1)].join('\r\n')}\r\n`, format)),
    );
  });

  it('writes only the first hunk of a file without a final newline, which stays without one', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool } = answering({ kind: 'approve', hunks: ['h1'] });
    const file = await workspace.write('a.txt', LINES.join('\n'), { readBy: runtime });
    const result = await tool.call({ path: 'a.txt', content: CHANGED.join('\n') });
    expect(await workspace.read(file)).toBe(['LINE 1', ...LINES.slice(1)].join('\n'));
    expect(result.output).toBe('     1\tLINE 1\n     2\tline 2\n     3\tline 3\n     4\tline 4\n');
  });

  it('rejects with no hunk, and refuses an unknown hunk to the host', async ({ workspace, answering }) => {
    const rejecting = answering({ kind: 'approve', hunks: [] });
    const file = await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: rejecting.runtime });
    const rejected = await rejecting.tool.call({ path: 'a.txt', content: `${CHANGED.join('\n')}\n` });
    expect(rejected).toMatchObject({ isError: true, brief: 'Rejected by user' });

    const unknown = answering({ kind: 'approve', hunks: ['h9'] });
    await workspace.write('a.txt', `${LINES.join('\n')}\n`, { readBy: unknown.runtime });
    const refused = await unknown.tool.call({ path: 'a.txt', content: `${CHANGED.join('\n')}\n` });
    expect(refused).toMatchObject({
      isError: true,
      brief: 'Invalid approval answer',
      message:
        'The approval answer could not be applied: "h9" is not a hunk of this change (its hunks are h1, h2). Nothing was written. This is a fault of the application that asked the user, not of your change: tell the user.',
    });
    expect(unknown.approval.requests).toHaveLength(3);
    expect(await workspace.read(file)).toBe(`${LINES.join('\n')}\n`);
  });
});

describe('WriteFile: edit before accept', () => {
  it('writes the user text in the file own line endings, and tells the model the difference', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool } = answering({ kind: 'approve', content: 'one\r\nTWO (mine)\r\nthree\r\n' });
    const file = await workspace.write('a.txt', 'one\ntwo\nthree\n', { readBy: runtime });
    const result = await tool.call({ path: 'a.txt', content: 'one\n2\nthree\n' });
    expect(await workspace.read(file)).toBe('one\nTWO (mine)\nthree\n');
    expect(result.message).toBe(
      [
        'File successfully overwritten. Current size: 21 bytes.',
        "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
        'From your proposal to what was written:',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,3 +1,3 @@',
        ' one',
        '-2',
        '+TWO (mine)',
        ' three',
      ].join('\n'),
    );
    expect(result.output).toBe('     1\tone\n     2\tTWO (mine)\n     3\tthree\n');
    expect(result.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: 'one\ntwo\nthree',
        newText: 'one\nTWO (mine)\nthree',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ]);
  });

  it('writes the user bytes exactly, even in another encoding than the file', async ({
    workspace,
    answering,
  }) => {
    const mine = new TextEncoder().encode('mine, in UTF-8\n');
    const { runtime, tool, approval } = answering({ kind: 'approve', content: mine });
    const file = await workspace.write(
      'a.txt',
      encodeText('theirs\r\n', { encoding: 'utf-16le', bom: true }),
      {
        readBy: runtime,
      },
    );
    const result = await tool.call({ path: 'a.txt', content: 'proposed\n' });
    expect(approval.requests[0]!.editable![0]!.proposedText()).toBe('proposed\r\n');
    expect(Buffer.from(await workspace.bytes(file))).toEqual(Buffer.from(mine));
    expect(result.extras).toEqual({ created: false, bytes: mine.length });
  });

  it('creates a new file from the user text as UTF-8, its line endings as given', async ({
    workspace,
    answering,
  }) => {
    const { tool } = answering({ kind: 'approve', content: { [workspace.at('new.txt')]: 'a\r\nb\r\n' } });
    const result = await tool.call({ path: 'new.txt', content: 'a\n' });
    expect(await workspace.read(workspace.at('new.txt'))).toBe('a\r\nb\r\n');
    expect(result.extras).toEqual({ created: true, bytes: 6 });
  });
});
