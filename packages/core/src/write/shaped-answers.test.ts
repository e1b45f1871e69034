import { promises as fs } from 'node:fs';
import fc from 'fast-check';
import { it, recordingApproval } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { ApprovalRequest, ApprovalResponse } from '../approval/approval.js';
import { checkApprovalResponse } from '../approval/check-answer.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { decodeText, encodeText } from '../text/codec.js';
import { encodeChange } from '../text/encode-change.js';
import { FileHistory } from '../state/file-history.js';
import { applyFileChange, type ApplyOutcome, type FileChange } from './apply-file-change.js';
import { requestParts, reviewDiff } from './reviewed-file.js';
import { shapeAnswer } from './shape-answer.js';

const TWELVE = Array.from({ length: 12 }, (_, index) => `l${index + 1}`);

/** The change of `input` to what `edit` makes of its text, computed as a tool computes it (the file's own format). */
async function editChange(
  runtime: ToolRuntime,
  input: string,
  edit: (text: string) => string,
): Promise<FileChange> {
  const resolved = await runtime.paths.resolveFile(input, 'write');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const oldBytes = await fs.readFile(resolved.path.real);
  const decoded = decodeText(oldBytes);
  if (!decoded.ok) throw new Error('not text');
  const newText = edit(decoded.decoded.text);
  return {
    sender: 'StrReplaceFile',
    verb: 'Edit',
    path: resolved.path,
    oldBytes,
    newBytes: encodeChange(decoded.decoded, oldBytes, newText),
    oldText: decoded.decoded.text,
    newText,
    checkReadState: false,
  };
}

/** Upper-cases the first and the last line: two hunks, at the start and at the end of the file. */
const firstAndLast = (text: string) => text.replace('l1\n', 'L1\n').replace('l12', 'L12');

function written(outcome: ApplyOutcome) {
  if (outcome.kind !== 'written') throw new Error(`not written: ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('per-hunk answers', () => {
  it('offers one hunk per diff block, with ids, numbers and marked lines', async ({ workspace }) => {
    const approval = recordingApproval({ kind: 'reject' });
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    await applyFileChange(runtime, await editChange(runtime, 'a.txt', firstAndLast));
    const request = approval.requests[0]!;
    expect(request.display).toHaveLength(2);
    expect(request.hunks).toEqual([
      {
        id: 'h1',
        path: file,
        oldStart: 1,
        oldLines: 4,
        newStart: 1,
        newLines: 4,
        lines: ['-l1', '+L1', ' l2', ' l3', ' l4'],
      },
      {
        id: 'h2',
        path: file,
        oldStart: 9,
        oldLines: 4,
        newStart: 9,
        newLines: 4,
        lines: [' l9', ' l10', ' l11', '-l12', '+L12'],
      },
    ]);
  });

  it.for([
    ['\r\n', 'utf-8', false],
    ['\n', 'utf-16le', true],
    ['\r\n', 'utf-16be', true],
  ] as const)(
    'writes only the approved hunk at the end of a %j %s file, every other byte kept',
    async ([ending, encoding, bom], { workspace }) => {
      const approval = recordingApproval({ kind: 'approve', hunks: ['h2'] });
      const history = new FileHistory();
      const runtime = workspace.runtime({ approval, history });
      // No final newline: it stays absent.
      const oldBytes = encodeText(TWELVE.join(ending), { encoding, bom });
      const file = await workspace.write('a.txt', oldBytes);
      const outcome = written(
        await applyFileChange(runtime, await editChange(runtime, 'a.txt', firstAndLast)),
      );
      const expected = encodeText([...TWELVE.slice(0, 11), 'L12'].join(ending), { encoding, bom });
      expect(new Uint8Array(await fs.readFile(file))).toEqual(new Uint8Array(expected));
      expect(Buffer.from(outcome.newBytes)).toEqual(Buffer.from(expected));
      expect(outcome.shaped).toEqual({ how: 'hunks', text: [...TWELVE.slice(0, 11), 'L12'].join('\n') });
      expect(outcome.note).toBe(
        [
          'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were.',
          `--- ${file}`,
          `+++ ${file}`,
          '@@ -1,4 +1,4 @@',
          '-l1',
          '+L1',
          ' l2',
          ' l3',
          ' l4',
        ].join('\n'),
      );
      // The result shows what was written, numbered as the file now is.
      expect(outcome.display).toEqual([
        {
          type: 'diff',
          path: file,
          oldText: 'l9\nl10\nl11\nl12',
          newText: 'l9\nl10\nl11\nL12',
          oldStart: 9,
          newStart: 9,
          isSummary: false,
        },
      ]);
      expect(history.list()).toHaveLength(1);
    },
  );

  it('writes only the approved hunk at the start, and passes the feedback on', async ({ workspace }) => {
    const approval = recordingApproval({ kind: 'approve', hunks: ['h1'], feedback: '  keep l12  ' });
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    const outcome = written(await applyFileChange(runtime, await editChange(runtime, 'a.txt', firstAndLast)));
    expect(await fs.readFile(file, 'utf8')).toBe(`L1\n${TWELVE.slice(1).join('\n')}\n`);
    expect(outcome.note.split('\n')[0]).toBe(
      'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were. User feedback: keep l12',
    );
    expect(outcome.note.split('\n').slice(3)).toEqual([
      '@@ -9,4 +9,4 @@',
      ' l9',
      ' l10',
      ' l11',
      '-l12',
      '+L12',
    ]);
  });

  it('reads no hunk as a rejection, and every hunk as a plain approval', async ({ workspace }) => {
    const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    const none = workspace.runtime({
      approval: recordingApproval({ kind: 'approve', hunks: [], feedback: 'no' }),
    });
    expect(await applyFileChange(none, await editChange(none, 'a.txt', firstAndLast))).toMatchObject({
      kind: 'refused',
      result: {
        isError: true,
        message: 'The tool call is rejected by the user. User feedback: no',
        brief: 'Rejected: no',
      },
    });
    expect(await fs.readFile(file, 'utf8')).toBe(`${TWELVE.join('\n')}\n`);

    const all = workspace.runtime({ approval: recordingApproval({ kind: 'approve', hunks: ['h2', 'h1'] }) });
    const outcome = written(await applyFileChange(all, await editChange(all, 'a.txt', firstAndLast)));
    expect(outcome.shaped).toBeUndefined();
    expect(outcome.note).toBe('');
    expect(await fs.readFile(file, 'utf8')).toBe(firstAndLast(`${TWELVE.join('\n')}\n`));
  });

  it('refuses an unknown hunk to the host by asking again, and writes what the next answer says', async ({
    workspace,
  }) => {
    const answers: ApprovalResponse[] = [
      { kind: 'approve', hunks: ['h3'] },
      { kind: 'approve', hunks: ['h1'] },
    ];
    const approval = recordingApproval(() => answers.shift()!);
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    written(await applyFileChange(runtime, await editChange(runtime, 'a.txt', firstAndLast)));
    expect(approval.requests).toHaveLength(2);
    expect(approval.requests[0]!.answerRefused).toBeUndefined();
    expect(approval.requests[1]!.answerRefused).toBe(
      '"h3" is not a hunk of this change (its hunks are h1, h2)',
    );
    expect({ ...approval.requests[1]!, answerRefused: undefined }).toEqual(approval.requests[0]);
    expect(await fs.readFile(file, 'utf8')).toBe(`L1\n${TWELVE.slice(1).join('\n')}\n`);
  });

  it.for([
    [{ kind: 'approve', hunks: ['h1', 'h1'] }, 'hunk "h1" is named twice'],
    [{ kind: 'approve', hunks: ['h1'], content: 'x' }, 'an answer gives "hunks" or "content", not both'],
    [{ kind: 'approve', hunks: 'h1' as unknown as string[] }, '"hunks" must be a list of hunk ids'],
  ] as const)(
    'fails the call after three answers it cannot apply, writing nothing: %j',
    async ([answer, reason], { workspace }) => {
      const approval = recordingApproval(answer as ApprovalResponse);
      const runtime = workspace.runtime({ approval });
      const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
      const outcome = await applyFileChange(runtime, await editChange(runtime, 'a.txt', firstAndLast));
      expect(outcome).toEqual({
        kind: 'refused',
        result: {
          isError: true,
          output: '',
          message: `The approval answer could not be applied: ${reason}. Nothing was written. This is a fault of the application that asked the user, not of your change: tell the user.`,
          brief: 'Invalid approval answer',
          display: [{ type: 'brief', text: 'Invalid approval answer' }],
        },
      });
      expect(approval.requests.map((request) => request.answerRefused)).toEqual([undefined, reason, reason]);
      expect(await fs.readFile(file, 'utf8')).toBe(`${TWELVE.join('\n')}\n`);
    },
  );
});

describe('any set of hunks', () => {
  it('keeps changes at most 6 unchanged lines apart in one hunk, so none can be taken without the other', async ({
    workspace,
  }) => {
    const approval = recordingApproval({ kind: 'reject' });
    const runtime = workspace.runtime({ approval });
    await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    const hunksOf = async (edit: (text: string) => string) => {
      await applyFileChange(runtime, await editChange(runtime, 'a.txt', edit));
      return approval.requests.at(-1)!.hunks!.map((hunk) => [hunk.oldStart, hunk.oldLines]);
    };
    // l1 and l8: six unchanged lines between them, one hunk.
    expect(await hunksOf((text) => text.replace('l1\n', 'L1\n').replace('l8', 'L8'))).toEqual([[1, 11]]);
    // l1 and l9: seven, two hunks with a line between them that neither holds.
    expect(await hunksOf((text) => text.replace('l1\n', 'L1\n').replace('l9', 'L9'))).toEqual([
      [1, 4],
      [6, 7],
    ]);
  });

  it('applies alone: each hunk gives its new lines when approved and leaves its old ones otherwise', () => {
    const lines = fc.array(fc.constantFrom(...'abcdefg'), { minLength: 1, maxLength: 40 });
    const edited = (old: string[]) =>
      fc
        .array(fc.integer({ min: 0, max: 5 }), { minLength: old.length, maxLength: old.length })
        .map((dice) =>
          old.flatMap((line, index) => (dice[index] === 0 ? [] : dice[index] === 1 ? ['x', line] : [line])),
        );
    const cases = lines.chain((old) =>
      fc.tuple(fc.constant(old), edited(old), fc.array(fc.boolean(), { maxLength: 20 })),
    );
    fc.assert(
      fc.property(cases, ([oldLines, newLines, picks]) => {
        // CRLF on disk, '\n' in the diff: every kept line keeps its CRLF.
        const oldText = oldLines.map((line) => `${line}\n`).join('');
        const newText = newLines.map((line) => `${line}\n`).join('');
        const oldBytes = Buffer.from(oldText.replace(/\n/g, '\r\n'));
        const decoded = decodeText(oldBytes);
        if (!decoded.ok) throw new Error('not text');
        const file = {
          path: '/w/f.txt',
          kind: 'edit' as const,
          oldBytes,
          newBytes: encodeChange(decoded.decoded, oldBytes, newText),
          view: reviewDiff('/w/f.txt', oldText, newText, 60_000, false),
          editable: true,
        };
        const request = requestParts([file]);
        // Hunks never share a line, on either side: no set of them is refused for being inseparable.
        for (const [previous, next] of request.hunks
          .slice(1)
          .map((hunk, index) => [request.hunks[index]!, hunk])) {
          expect(previous!.oldStart + previous!.oldLines).toBeLessThan(next!.oldStart);
          expect(previous!.newStart + previous!.newLines).toBeLessThan(next!.newStart);
        }
        const chosen = request.hunks.filter((_, index) => picks[index] === true);
        const shaped = shapeAnswer(
          request,
          [file],
          { kind: 'approve', hunks: chosen.map((h) => h.id) },
          60_000,
        );
        const expected: string[] = [];
        let at = 0;
        for (const hunk of request.hunks) {
          expected.push(...oldLines.slice(at, hunk.oldStart - 1));
          const taken = chosen.includes(hunk);
          expected.push(
            ...(taken
              ? newLines.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines)
              : oldLines.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines)),
          );
          at = hunk.oldStart - 1 + hunk.oldLines;
        }
        expected.push(...oldLines.slice(at));
        const bytes = Buffer.from(expected.map((line) => `${line}\r\n`).join(''));
        if (chosen.length === 0) expect(shaped.kind).toBe('rejected');
        else if (chosen.length === request.hunks.length)
          expect(shaped).toMatchObject({ files: [{ how: 'proposed' }] });
        else {
          if (shaped.kind !== 'approved' || shaped.files[0]!.how !== 'hunks') throw new Error('not shaped');
          expect(Buffer.from(shaped.files[0]!.newBytes!)).toEqual(bytes);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('edit before accept', () => {
  it('offers the proposal as text, with its own line endings and without the BOM', async ({ workspace }) => {
    const approval = recordingApproval({ kind: 'reject' });
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write(
      'a.txt',
      encodeText('a\r\nb\r\n', { encoding: 'utf-16le', bom: true }),
    );
    await applyFileChange(runtime, await editChange(runtime, 'a.txt', (text) => text.replace('b', 'B')));
    const editable = approval.requests[0]!.editable!;
    expect(editable.map((entry) => [entry.path, entry.size])).toEqual([[file, 14]]);
    expect(editable[0]!.proposedText()).toBe('a\r\nB\r\n');
  });

  it.for([
    [
      'LF text into a CRLF UTF-16 file',
      'a\nmine\n',
      encodeText('a\r\nmine\r\n', { encoding: 'utf-16le', bom: true }),
    ],
    [
      'CRLF text into a CRLF UTF-16 file',
      'a\r\nmine\r\n',
      encodeText('a\r\nmine\r\n', { encoding: 'utf-16le', bom: true }),
    ],
    [
      'UTF-8 bytes, written as they are',
      new TextEncoder().encode('a\nmine\n'),
      new TextEncoder().encode('a\nmine\n'),
    ],
  ] as const)('writes the user content: %s', async ([, content, expected], { workspace }) => {
    const approval = recordingApproval({ kind: 'approve', content });
    const history = new FileHistory();
    const runtime = workspace.runtime({ approval, history });
    const oldBytes = encodeText('a\r\nb\r\n', { encoding: 'utf-16le', bom: true });
    const file = await workspace.write('a.txt', oldBytes);
    const outcome = written(
      await applyFileChange(runtime, await editChange(runtime, 'a.txt', (text) => text.replace('b', 'B'))),
    );
    expect(new Uint8Array(await fs.readFile(file))).toEqual(new Uint8Array(expected));
    expect(outcome.shaped).toEqual({ how: 'content', text: 'a\nmine\n' });
    expect(outcome.note).toBe(
      [
        "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
        'From your proposal to what was written:',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,2 +1,2 @@',
        ' a',
        '-B',
        '+mine',
      ].join('\n'),
    );
    expect(outcome.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: 'a\nb',
        newText: 'a\nmine',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ]);
    expect(await history.undo()).toMatchObject([{ path: file }]);
    expect(new Uint8Array(await fs.readFile(file))).toEqual(new Uint8Array(oldBytes));
  });

  it("tells change observers the user's bytes, and refuses them too when the file changed meanwhile", async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', 'a\nb\n');
    const told: string[] = [];
    let meddle = false;
    const approval = recordingApproval(async () => {
      // Someone else writes the file while the user edits the proposal.
      if (meddle) await fs.writeFile(file, 'a\nb, changed elsewhere\n');
      return { kind: 'approve', content: 'a\nmine\n' };
    });
    const runtime = workspace.runtime({ approval });
    runtime.changeObservers.add({
      name: 'watch',
      changeApplied: (change) => {
        told.push(new TextDecoder().decode(change.newBytes));
        return undefined;
      },
    });
    const edit = (text: string) => text.replace('b', 'B');
    written(await applyFileChange(runtime, await editChange(runtime, 'a.txt', edit)));
    expect(told).toEqual(['a\nmine\n']);
    await fs.writeFile(file, 'a\nb\n');
    meddle = true;
    const outcome = await applyFileChange(runtime, await editChange(runtime, 'a.txt', edit));
    expect(outcome).toMatchObject({ kind: 'refused', result: { brief: 'File modified' } });
    expect(await fs.readFile(file, 'utf8')).toBe('a\nb, changed elsewhere\n');
    expect(told).toHaveLength(1);
  });

  it('reads content equal to the proposal as a plain approval', async ({ workspace }) => {
    const approval = recordingApproval({ kind: 'approve', content: 'a\nB\n', feedback: 'thanks' });
    const runtime = workspace.runtime({ approval });
    await workspace.write('a.txt', 'a\nb\n');
    const outcome = written(
      await applyFileChange(runtime, await editChange(runtime, 'a.txt', (text) => text.replace('b', 'B'))),
    );
    expect(outcome.shaped).toBeUndefined();
    expect(outcome.note).toBe('User feedback: thanks');
  });

  it('says so when the user bytes are not text', async ({ workspace }) => {
    const approval = recordingApproval({ kind: 'approve', content: new Uint8Array([0, 1, 2, 0xff]) });
    const runtime = workspace.runtime({ approval });
    const file = await workspace.write('a.txt', 'a\nb\n');
    const outcome = written(
      await applyFileChange(runtime, await editChange(runtime, 'a.txt', (text) => text.replace('b', 'B'))),
    );
    expect(outcome.shaped).toEqual({ how: 'content', text: undefined });
    expect(outcome.note.split('\n').slice(1)).toEqual([
      `\`${file}\`: the user's version is not text in a supported encoding (4 bytes), so no difference can be shown.`,
    ]);
    expect(new Uint8Array(await fs.readFile(file))).toEqual(new Uint8Array([0, 1, 2, 0xff]));
  });

  it('refuses text the file encoding cannot store, and content for a path the change does not edit', async ({
    workspace,
  }) => {
    const answers: ApprovalResponse[] = [
      { kind: 'approve', content: 'a\n\u{1F600}\n' },
      { kind: 'approve', content: { '/elsewhere.txt': 'x' } },
      { kind: 'approve', content: 'a\nc\n' },
    ];
    const approval = recordingApproval(() => answers.shift()!);
    const runtime = workspace.runtime({ approval });
    const oldBytes = encodeText('a\nb\xe9\n', { encoding: 'windows-1252', bom: false });
    const file = await workspace.write('a.txt', oldBytes);
    // The legacy encoding is the one detection finds for these few bytes.
    const detected = decodeText(oldBytes);
    const encoding = detected.ok ? detected.decoded.format.encoding : '';
    written(
      await applyFileChange(runtime, await editChange(runtime, 'a.txt', (text) => text.replace('b', 'B'))),
    );
    expect(approval.requests.map((request) => request.answerRefused)).toEqual([
      undefined,
      `the content of \`${file}\` cannot be written in the file's encoding: The character "\u{1F600}" (U+1F600) cannot be encoded in ${encoding}.`,
      '`/elsewhere.txt` is not a file of this change that can be edited',
    ]);
    expect(await fs.readFile(file, 'latin1')).toBe('a\nc\n');
  });

  // A new file's content from the user went through Buffer.from, which writes a lone surrogate as U+FFFD.
  it("refuses a new file's content holding a lone surrogate, which UTF-8 cannot store", async ({
    workspace,
  }) => {
    const answers: ApprovalResponse[] = [
      { kind: 'approve', content: 'a\udcffb\n' },
      { kind: 'approve', content: 'ab\n' },
    ];
    const approval = recordingApproval(() => answers.shift()!);
    const runtime = workspace.runtime({ approval });
    const resolved = await runtime.paths.resolveFile('new.txt', 'write');
    if (!resolved.ok) throw new Error(resolved.error.message);
    const change: FileChange = {
      sender: 'WriteFile',
      verb: 'Write',
      path: resolved.path,
      oldBytes: null,
      newBytes: Buffer.from('x\n'),
      oldText: '',
      newText: 'x\n',
      checkReadState: false,
    };
    written(await applyFileChange(runtime, change));
    expect(approval.requests.map((request) => request.answerRefused)).toEqual([
      undefined,
      `the content of \`${resolved.path.real}\` cannot be written in the file's encoding: The character "\udcff" (U+DCFF) cannot be encoded in utf-8.`,
    ]);
    expect(await fs.readFile(resolved.path.real, 'utf8')).toBe('ab\n');
  });
});

describe('checkApprovalResponse', () => {
  const request: Pick<ApprovalRequest, 'hunks' | 'editable'> = {
    hunks: [{ id: 'h1', path: '/w/a', oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [] }],
    editable: [
      { path: '/w/a', size: 1, proposedText: () => 'a' },
      { path: '/w/b', size: 1, proposedText: () => 'b' },
    ],
  };

  it('accepts what can be applied', () => {
    expect(checkApprovalResponse(request, { kind: 'approve' })).toBeUndefined();
    expect(checkApprovalResponse(request, { kind: 'approve', hunks: [] })).toBeUndefined();
    expect(
      checkApprovalResponse(request, { kind: 'approve', content: { '/w/b': new Uint8Array() } }),
    ).toBeUndefined();
    expect(checkApprovalResponse(request, { kind: 'reject', feedback: 'x' })).toBeUndefined();
  });

  it('says why an answer cannot be applied', () => {
    expect(checkApprovalResponse(request, { kind: 'approve', content: 'x' })).toBe(
      'this change has 2 files that can be edited: give "content" as an object keyed by their paths',
    );
    expect(checkApprovalResponse({}, { kind: 'approve', content: 'x' })).toBe(
      'no file of this change can be edited',
    );
    expect(checkApprovalResponse({}, { kind: 'approve', hunks: ['h1'] })).toBe(
      '"h1" is not a hunk of this change (it has none)',
    );
    expect(
      checkApprovalResponse(request, { kind: 'approve', content: { '/w/a': 5 as unknown as string } }),
    ).toBe('the content of `/w/a` must be a string or a Uint8Array');
  });
});
