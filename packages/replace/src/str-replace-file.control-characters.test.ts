import type { ApprovalResponse } from '@kimi-tools/core';
import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

// Every text StrReplaceFile shows the model from a file shows its control characters as ReadFile does
// (docs/read-file.md#encodings): ESC and BEL as `␛` and `␇`, tab as it is; a lone `\r` ends a line. The closest text,
// the diff of a change since the read and the diffs of shaped approvals reached the model with the raw characters:
// `ESC [2J` cleared the terminal of a host printing them. The file keeps its real characters, and so do the diff
// blocks shown to the host.
const TERMINAL = 'clear "\u001b[2J" bell "\u0007"\r\ty;';
const SHOWN = ['clear "\u241b[2J" bell "\u2407"', '\ty;'];

/** The kit's test, with `answering`: a runtime whose approval gives `answer`, and a StrReplaceFile on it. */
const it = test.extend('answering', ({ workspace }) => (answer: ApprovalResponse) => {
  const approval = recordingApproval(answer);
  const runtime = workspace.runtime({ approval });
  return { approval, runtime, tool: new StrReplaceFile(runtime) };
});

describe("control characters of a file's lines, in what the model is shown", () => {
  it('shows them as pictures in the closest text, and needs the real ones in old', async ({
    workspace,
    answering,
  }) => {
    const { runtime, tool } = answering({ kind: 'approve' });
    const content = `one\n${TERMINAL}\nthree\n`;
    const file = await workspace.write('a.txt', content, { readBy: runtime });
    const miss = (old: string) => tool.call({ path: 'a.txt', edit: { old, new: 'z' } });
    const notFound = `Edit 1: the old string was not found in the file. No changes were made. The closest text is at line 2:\n\`\`\`\n${SHOWN.join('\n')}\n\`\`\``;
    expect((await miss('clear "[2J" bell ""\n\ty;')).message).toBe(notFound);
    // The excerpt copied back: a picture is a character of its own (docs/read-file.md#encodings).
    expect((await miss(SHOWN.join('\n'))).message).toBe(notFound);
    expect(await workspace.read(file)).toBe(content);
    const edited = await tool.call({
      path: 'a.txt',
      edit: { old: 'clear "\u001b[2J" bell "\u0007"\n\ty;', new: 'cleared' },
    });
    expect(edited.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising line endings.',
    );
    expect(await workspace.read(file)).toBe('one\ncleared\nthree\n');
  });

  it('shows them as pictures in the diff of a change since the read', async ({ workspace, answering }) => {
    const { runtime, tool } = answering({ kind: 'approve' });
    const file = await workspace.write('a.txt', 'one\nclear = 1;\nthree\n', { readBy: runtime });
    await workspace.write(file, `one\n${TERMINAL}\nthree\n`);
    const result = await tool.call({ path: 'a.txt', edit: { old: 'clear = 1;', new: 'z' } });
    expect(result.message).toBe(
      [
        '`a.txt` has been modified since it was last read, and the change touches the lines the edit would change (lines 2-3). No changes were made. Those lines now read:',
        '```',
        `     2\t${SHOWN[0]}`,
        `     3\t${SHOWN[1]}`,
        '```',
        'What changed since the read:',
        '```diff',
        '@@ -1,3 +1,4 @@',
        ' one',
        '-clear = 1;',
        `+${SHOWN[0]}`,
        `+${SHOWN[1]}`,
        ' three',
        '```',
        'Edit against the current lines.',
      ].join('\n'),
    );
    expect(await workspace.read(file)).toBe(`one\n${TERMINAL}\nthree\n`);
  });

  it('shows them as pictures in the rejected hunks of a partial approval, and writes and displays the real ones', async ({
    workspace,
    answering,
  }) => {
    const { approval, runtime, tool } = answering({ kind: 'approve', hunks: ['h1'] });
    const middle = Array.from({ length: 10 }, (_, index) => `line ${index + 2}`);
    const content = `start\n${middle.join('\n')}\n${TERMINAL}\n`;
    const file = await workspace.write('a.txt', content, { readBy: runtime });
    const result = await tool.call({
      path: 'a.txt',
      edit: [
        { old: 'start', new: 'START' },
        { old: '\ty;', new: '\ty;\n\u001b[0m' },
      ],
    });
    expect(result.message).toBe(
      [
        'File successfully edited. Matched 2 edit(s) with 2 total replacement(s); only part of the change was written.',
        'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were.',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -11,3 +11,4 @@',
        ' line 11',
        ` ${SHOWN[0]}`,
        ` ${SHOWN[1]}`,
        '+\u241b[0m',
      ].join('\n'),
    );
    expect(await workspace.read(file)).toBe(content.replace('start', 'START'));
    // The host's diff blocks hold the file's own characters.
    expect(approval.requests[0]?.display[1]).toMatchObject({
      oldText: 'line 11\nclear "\u001b[2J" bell "\u0007"\n\ty;',
      newText: 'line 11\nclear "\u001b[2J" bell "\u0007"\n\ty;\n\u001b[0m',
    });
  });

  it("shows them as pictures in the diff of the user's own version, and writes the user's bytes", async ({
    workspace,
    answering,
  }) => {
    const own = 'one\nuser "\u001b[2J\u0007"\nz;\nthree\n';
    const { runtime, tool } = answering({ kind: 'approve', content: own });
    const file = await workspace.write('a.txt', 'one\ntwo\nthree\n', { readBy: runtime });
    const result = await tool.call({ path: 'a.txt', edit: { old: 'two', new: 'TWO' } });
    expect(result.message.split('\n').slice(2)).toEqual([
      'From your proposal to what was written:',
      `--- ${file}`,
      `+++ ${file}`,
      '@@ -1,3 +1,4 @@',
      ' one',
      '-TWO',
      '+user "\u241b[2J\u2407"',
      '+z;',
      ' three',
    ]);
    expect(await workspace.read(file)).toBe(own);
  });
});
