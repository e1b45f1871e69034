import path from 'node:path';
import {
  backendHas,
  markRead,
  readBytes,
  recordingApproval,
  test,
  testFileSystem,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { MAX_EDIT_FILE_BYTES, MAX_EDIT_GROWTH_CHARS, MAX_REPLACEMENTS } from './limits.js';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `tool`: a StrReplaceFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

/** A file's bytes, read through the run's backend. */
async function bytesOf(filePath: string): Promise<Buffer> {
  return readBytes(await testFileSystem(), filePath);
}

async function textOf(filePath: string): Promise<string> {
  return (await bytesOf(filePath)).toString('utf8');
}

describe('success', () => {
  it('edits a unique match, asks approval with the diff, and reports exactly', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('a.ts', 'const a = 1;\nconst b = 2;\n', { readBy: runtime });
    const result = await tool.call({ path: 'a.ts', edit: { old: 'b = 2', new: 'b = 3' } });
    expect(result.isError).toBe(false);
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(result.brief).toBe('');
    expect(result.extras).toEqual({
      replacements: 1,
      matchedBy: 'exact',
      edits: [{ replacements: 1, matchedBy: 'exact' }],
    });
    expect(await textOf(file)).toBe('const a = 1;\nconst b = 3;\n');
    expect(approval.requests).toHaveLength(1);
    const [request] = approval.requests;
    expect(request?.description).toBe(`Edit file \`${file}\``);
    expect(request?.action).toBe('edit file');
    expect(request?.sender).toBe('StrReplaceFile');
    expect(request?.path).toBe(file);
    expect(request?.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: 'const a = 1;\nconst b = 2;',
        newText: 'const a = 1;\nconst b = 3;',
        oldStart: 1,
        newStart: 1,
        isSummary: false,
      },
    ]);
    expect(result.display).toEqual(request?.display);
  });

  it('chains edits on the running content and counts the chained match', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('chain.txt', 'alpha\n', { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: [
        { old: 'alpha', new: 'alpha beta beta' },
        { old: 'beta', new: 'gamma', replace_all: true },
      ],
    });
    expect(result.message).toBe('File successfully edited. Applied 2 edit(s) with 3 total replacement(s).');
    expect(result.extras).toEqual({
      replacements: 3,
      matchedBy: 'exact',
      edits: [
        { replacements: 1, matchedBy: 'exact' },
        { replacements: 2, matchedBy: 'exact' },
      ],
    });
    expect(await textOf(file)).toBe('alpha gamma gamma\n');
  });

  it('needs no re-read between consecutive edits', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('twice.txt', 'one two\n', { readBy: runtime });
    expect((await tool.call({ path: file, edit: { old: 'one', new: '1' } })).isError).toBe(false);
    const second = await tool.call({ path: file, edit: { old: 'two', new: '2' } });
    expect(second.isError).toBe(false);
    expect(await textOf(file)).toBe('1 2\n');
  });

  it('inserts $&, $1 and $$ literally', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('dollar.js', 'x = "a";\n', { readBy: runtime });
    await tool.call({ path: file, edit: { old: '"a"', new: '"$& $1 $$"' } });
    expect(await textOf(file)).toBe('x = "$& $1 $$";\n');
  });

  it('deletes a whole line with its line break', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('del.txt', 'keep 1\ndrop me\nkeep 2\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'drop me', new: '' } });
    expect(result.isError).toBe(false);
    expect(await textOf(file)).toBe('keep 1\nkeep 2\n');
  });

  it('edits with a multi-line old ending with and without a newline', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('multi.txt', 'a\nb\nc\nd\n', { readBy: runtime });
    await tool.call({ path: file, edit: { old: 'b\nc\n', new: 'B\n' } });
    expect(await textOf(file)).toBe('a\nB\nd\n');
    await tool.call({ path: file, edit: { old: 'a\nB', new: 'A\nBB' } });
    expect(await textOf(file)).toBe('A\nBB\nd\n');
  });

  it('takes the first match in match: first mode', async ({ workspace, runtime }) => {
    const first = new StrReplaceFile(runtime, { match: 'first' });
    const file = await workspace.write('f.txt', 'x\nx\n', { readBy: runtime });
    const result = await first.call({ path: file, edit: { old: 'x', new: 'y' } });
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await textOf(file)).toBe('y\nx\n');
  });

  it('refuses a match option it does not know', ({ runtime }) => {
    const match = 'last' as unknown as 'first';
    expect(() => new StrReplaceFile(runtime, { match })).toThrow(
      `StrReplaceFile: match must be 'unique' or 'first', got "last".`,
    );
  });

  it('asks EDIT_OUTSIDE for an absolute path outside the workspace', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write(workspace.outside('o.txt'), 'out\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'out', new: 'in' } });
    expect(result.isError).toBe(false);
    expect(approval.requests[0]?.action).toBe('edit file outside of working directory');
  });

  it('asks nothing and writes nothing when the edits cancel out', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('same.txt', 'abc\n', { readBy: runtime });
    const before = (await workspace.fs.stat(file)).mtimeMs;
    const result = await tool.call({
      path: file,
      edit: [
        { old: 'abc', new: 'xyz' },
        { old: 'xyz', new: 'abc' },
      ],
    });
    expect(result.isError).toBe(false);
    expect(result.message).toBe(
      'File unchanged: the edits leave the content identical to the current file. Applied 2 edit(s) with 2 total replacement(s).',
    );
    expect(approval.requests).toHaveLength(0);
    expect((await workspace.fs.stat(file)).mtimeMs).toBe(before);
  });
});

describe('all or nothing', () => {
  it('leaves the file untouched and asks nothing when the third edit fails', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const original = 'one\ntwo\nthree\n';
    const file = await workspace.write('three.txt', original, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: [
        { old: 'one', new: '1' },
        { old: 'two', new: '2' },
        { old: 'four', new: '4' },
      ],
    });
    expect(result).toMatchObject({
      isError: true,
      message: 'Edit 3: the old string was not found in the file. No changes were made.',
      brief: 'No match',
    });
    expect(await textOf(file)).toBe(original);
    expect(approval.requests).toHaveLength(0);
  });

  it('writes nothing when the user rejects, and says so', async ({ workspace }) => {
    const runtime = workspace.runtime({
      approval: recordingApproval({ kind: 'reject', feedback: 'not now' }),
    });
    const rejecting = new StrReplaceFile(runtime);
    const file = await workspace.write('r.txt', 'abc\n', { readBy: runtime });
    const result = await rejecting.call({ path: file, edit: { old: 'abc', new: 'xyz' } });
    expect(result).toMatchObject({
      isError: true,
      message: 'The tool call is rejected by the user. User feedback: not now',
      brief: 'Rejected: not now',
    });
    expect(await textOf(file)).toBe('abc\n');
  });
});

describe('bounded approval display (docs/diff-blocks.md)', () => {
  it.runIf(backendHas('huge-files'))(
    'shows a 6-character edit in a 50 MB one-line file in a few hundred bytes',
    async ({ workspace, runtime, tool, approval }) => {
      const half = 'x'.repeat(25 * 1024 * 1024);
      const file = await workspace.write('one-line.txt', `${half}before${half}`, { readBy: runtime });
      const result = await tool.call({ path: 'one-line.txt', edit: { old: 'before', new: 'after!' } });
      expect(result.isError).toBe(false);
      const display = approval.requests[0]?.display ?? [];
      expect(display).toEqual([
        {
          type: 'diff',
          path: file,
          oldText: `[...${half.length - 200} characters cut...]${'x'.repeat(200)}before${'x'.repeat(200)}[...${half.length - 200} characters cut...]`,
          newText: `[...${half.length - 200} characters cut...]${'x'.repeat(200)}after!${'x'.repeat(200)}[...${half.length - 200} characters cut...]`,
          oldStart: 1,
          newStart: 1,
          isSummary: false,
        },
      ]);
      expect(result.display).toEqual(display);
      expect((await workspace.fs.stat(file)).size).toBe(50 * 1024 * 1024 + 6);
    },
    120_000,
  );
});

describe('edit errors', () => {
  it('refuses an empty old string', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('e.txt', 'abc\n', { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: [
        { old: 'a', new: 'b' },
        { old: '', new: 'x' },
      ],
    });
    expect(result).toMatchObject({
      isError: true,
      message: 'Edit 2: the old string is empty. Provide the exact text to replace.',
      brief: 'Invalid edit',
    });
    expect(await textOf(file)).toBe('abc\n');
  });

  it('refuses identical strings', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('i.txt', 'abc\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'abc', new: 'abc' } });
    expect(result).toMatchObject({
      isError: true,
      message: 'Edit 1: the old and new strings are identical; nothing to change.',
      brief: 'Invalid edit',
    });
  });

  it('shows the closest text when the old string is not found', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('n.py', 'def area(width, height):\n    return width * height\n', {
      readBy: runtime,
    });
    const result = await tool.call({ path: file, edit: { old: '    return width * heigth', new: 'x' } });
    expect(result).toMatchObject({
      isError: true,
      message:
        'Edit 1: the old string was not found in the file. No changes were made. The closest text is at line 2:\n```\n    return width * height\n```',
      brief: 'No match',
    });
  });

  it('refuses a sensitive file before reading it: a right and a wrong guess answer alike', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const secret = 'API_KEY=sk-live-0123456789abcdef\n';
    const file = await workspace.write('.env', secret, { readBy: runtime });
    await workspace.fs.symlink('.env', workspace.at('notes.txt'));
    const message =
      '`{path}` appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect credentials.';
    for (const shown of [file, '.env', 'notes.txt']) {
      const answers = [];
      for (const guess of ['API_KEY=sk-live-0123456789abcdef', 'API_KEY=sk-live-0123456789abcdeX']) {
        answers.push(
          await tool.call({
            path: shown,
            edit: [
              { old: guess, new: 'X' },
              { old: 'no such', new: 'y' },
            ],
          }),
        );
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]).toMatchObject({
        isError: true,
        message: message.replace('{path}', shown),
        brief: 'Sensitive file',
      });
    }
    // Refused before the file is looked at: a missing sensitive file answers the same way.
    expect(await tool.call({ path: '.env.local', edit: { old: 'a', new: 'b' } })).toMatchObject({
      brief: 'Sensitive file',
    });
    expect(approval.requests).toEqual([]);
    expect(await textOf(file)).toBe(secret);
  });

  it('lists every line of an ambiguous match', async ({ workspace, runtime, tool, approval }) => {
    const file = await workspace.write('amb.txt', 'x = 1\ny\nx = 1\nz\nx = 1\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'x = 1', new: 'x = 2' } });
    expect(result).toMatchObject({
      isError: true,
      message:
        'Edit 1: found 3 matches of the old string (at lines 1, 3, 5). Provide more surrounding context to make it unique, or set replace_all to true.',
      brief: 'Ambiguous match',
    });
    expect(approval.requests).toHaveLength(0);
  });

  it('rejects an empty edit list and a missing field as invalid arguments', async ({ tool }) => {
    const empty = await tool.call({ path: 'a.txt', edit: [] });
    expect(empty.brief).toBe('Invalid arguments');
    expect(empty.message.startsWith('Error validating JSON arguments: ')).toBe(true);
    const missing = await tool.call({ path: 'a.txt', edit: { old: 'x' } });
    expect(missing.brief).toBe('Invalid arguments');
  });

  it('takes an edit, or a list of edits, sent JSON-encoded in a string', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('a.ts', 'const a = 1;\nconst b = 2;\n', { readBy: runtime });
    const one = await tool.call({ path: 'a.ts', edit: JSON.stringify({ old: 'a = 1', new: 'a = 10' }) });
    expect(one.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    const list = JSON.stringify([
      { old: 'a = 10', new: 'a = 11' },
      { old: 'b = 2', new: 'b = 3', replace_all: true },
    ]);
    const two = await tool.call({ path: 'a.ts', edit: list });
    expect(two.message).toBe('File successfully edited. Applied 2 edit(s) with 2 total replacement(s).');
    expect(await textOf(file)).toBe('const a = 11;\nconst b = 3;\n');
  });

  it('says which shape an edit must have', async ({ tool }) => {
    expect((await tool.call({ path: 'a.txt', edit: 'old: x, new: y' })).message).toBe(
      'Error validating JSON arguments: edit: Invalid input: expected object or array, received string',
    );
    expect((await tool.call({ path: 'a.txt', edit: '{"old": "x", "new": "y"' })).message).toBe(
      'Error validating JSON arguments: edit: Invalid input: expected object or array, received a string that is not valid JSON',
    );
    expect((await tool.call({ path: 'a.txt' })).message).toBe(
      'Error validating JSON arguments: edit: is required',
    );
  });
});

describe('path and file checks', () => {
  it('refuses an empty path', async ({ tool }) => {
    expect(await tool.call({ path: '', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: 'File path cannot be empty.',
      brief: 'Empty file path',
    });
  });

  it('refuses a path with a NUL byte', async ({ tool }) => {
    expect(await tool.call({ path: 'a\0b', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`"a\\u0000b"` is not a valid path.',
      brief: 'Invalid path',
    });
  });

  it('refuses a relative path outside the workspace with the edit wording', async ({ tool }) => {
    expect(await tool.call({ path: '../elsewhere.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message:
        '`../elsewhere.txt` is not an absolute path. You must provide an absolute path to edit a file outside the working directory.',
      brief: 'Invalid path',
    });
  });

  it('refuses a denied path before touching the file', async ({ workspace }) => {
    const runtime = workspace.runtime({ deny: ['**/secret/**'] });
    const denying = new StrReplaceFile(runtime);
    await workspace.write('secret/s.txt', 'abc\n', { readBy: runtime });
    expect(await denying.call({ path: 'secret/s.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`secret/s.txt` is denied by the workspace policy.',
      brief: 'Access denied',
    });
  });

  it('says a missing file does not exist and suggests a similar name', async ({ workspace, tool }) => {
    await workspace.write('config.json', '{}\n');
    expect(await tool.call({ path: 'confg.json', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`confg.json` does not exist. Did you mean: config.json?',
      brief: 'File not found',
    });
    expect(await tool.call({ path: 'zzzzzz.md', edit: { old: 'a', new: 'b' } })).toMatchObject({
      message: '`zzzzzz.md` does not exist.',
      brief: 'File not found',
    });
  });

  it('refuses a directory, given with a trailing slash or not', async ({ workspace, tool }) => {
    await workspace.mkdir(path.join(workspace.workDir, 'sub'));
    for (const input of ['sub', 'sub/']) {
      expect(await tool.call({ path: input, edit: { old: 'a', new: 'b' } })).toMatchObject({
        isError: true,
        message: `\`${input}\` is not a file.`,
        brief: 'Invalid path',
      });
    }
  });

  it('sends notebooks to NotebookEdit', async ({ workspace, runtime, tool }) => {
    await workspace.write('nb.ipynb', '{"cells": []}\n', { readBy: runtime });
    expect(await tool.call({ path: 'nb.ipynb', edit: { old: 'cells', new: 'x' } })).toMatchObject({
      isError: true,
      message: '`nb.ipynb` is a Jupyter notebook. Edit its cells with the NotebookEdit tool.',
      brief: 'Unsupported file type',
    });
  });

  it.runIf(backendHas('huge-files'))(
    'judges a file beyond the string limit (sparse) from its first bytes, never reading it whole',
    async ({ workspace, tool }) => {
      const file = path.join(workspace.workDir, 'huge.log');
      await workspace.write(file);
      await workspace.truncate(file, MAX_EDIT_FILE_BYTES + 1);
      const rssBefore = process.memoryUsage().rss;
      expect(await tool.call({ path: 'huge.log', edit: { old: 'a', new: 'b' } })).toMatchObject({
        isError: true,
        message: '`huge.log` is not a valid text file in a supported encoding; it was not changed.',
        brief: 'Unsupported encoding',
      });
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    },
  );

  it('never rewrites a binary file', async ({ workspace, runtime, tool }) => {
    const bytes = Buffer.from([0x61, 0x00, 0x62, 0xff, 0x00, 0x01]);
    const file = await workspace.write('blob.bin', bytes, { readBy: runtime });
    expect(await tool.call({ path: 'blob.bin', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`blob.bin` is not a valid text file in a supported encoding; it was not changed.',
      brief: 'Unsupported encoding',
    });
    expect(await bytesOf(file)).toEqual(bytes);
  });

  it('requires a read first, and a fresh one after an outside change', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('unread.txt', 'abc\n');
    expect(await tool.call({ path: 'unread.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`unread.txt` has not been read yet. Read it first before writing to it.',
      brief: 'File not read',
    });
    await markRead(runtime, file);
    await workspace.write(file, 'abcdef\n');
    // Issue 20.3 changed this expectation: the change overlaps the edit, so the refusal shows the lines and the diff.
    expect(await tool.call({ path: 'unread.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message:
        '`unread.txt` has been modified since it was last read, and the change touches the lines the edit would change (line 1). No changes were made. Those lines now read:\n```\n     1\tabcdef\n```\nWhat changed since the read:\n```diff\n@@ -1,1 +1,1 @@\n-abc\n+abcdef\n```\nEdit against the current lines.',
      brief: 'File modified',
    });
    expect(await textOf(file)).toBe('abcdef\n');
  });

  it('edits without a read when readBeforeWrite is off', async ({ workspace }) => {
    const runtime = workspace.runtime({ readBeforeWrite: false });
    const relaxed = new StrReplaceFile(runtime);
    const file = await workspace.write('x.txt', 'abc\n');
    expect((await relaxed.call({ path: file, edit: { old: 'b', new: 'B' } })).isError).toBe(false);
    expect(await textOf(file)).toBe('aBc\n');
  });

  it('turns an unexpected exception into the generic failure', async ({ workspace }) => {
    const runtime = workspace.runtime({
      approval: recordingApproval(async () => {
        throw new Error('approval UI crashed');
      }),
    });
    const failing = new StrReplaceFile(runtime);
    const file = await workspace.write('f.txt', 'abc\n', { readBy: runtime });
    expect(await failing.call({ path: file, edit: { old: 'b', new: 'B' } })).toMatchObject({
      isError: true,
      message: 'Failed to edit. Error: approval UI crashed',
      brief: 'Failed to edit file',
    });
    expect(await textOf(file)).toBe('abc\n');
  });
});

describe('output budget (docs/str-replace-file.md)', () => {
  it('refuses more replacements than the budget with a clear error, writing nothing, asking nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const content = 'a;'.repeat(MAX_REPLACEMENTS + 1);
    const file = await workspace.write('many.txt', content, { readBy: runtime });
    const result = await tool.call({ path: 'many.txt', edit: { old: ';', new: ',', replace_all: true } });
    expect(result.isError).toBe(true);
    expect(result.message).toBe(
      `Edit 1: the edits would make more than ${MAX_REPLACEMENTS} replacements; at most ${MAX_REPLACEMENTS} are made in one call. No changes were made. Use a more specific old string, or a script for a change this large.`,
    );
    expect(result.brief).toBe('Invalid edit');
    expect(await textOf(file)).toBe(content);
    expect(approval.requests).toEqual([]);
  });

  it('stops 40 replace_all edits that each double the text at the budget, writing nothing', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('double.txt', 'a\n', { readBy: runtime });
    const edits = Array.from({ length: 40 }, () => ({ old: 'a', new: 'aa', replace_all: true }));
    const result = await tool.call({ path: 'double.txt', edit: edits });
    // Edits 1 to 16 make 1 + 2 + ... + 2^15 = 65,535 replacements; the 17th would bring 2^16 more.
    expect(result.message).toMatch(/^Edit 17: the edits would make more than 100000 replacements;/);
    expect(await textOf(file)).toBe('a\n');
  });

  it('refuses edits that would add more than the budget, writing nothing', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('grow.txt', 'x\n'.repeat(1000), { readBy: runtime });
    const result = await tool.call({
      path: 'grow.txt',
      edit: { old: 'x', new: 'y'.repeat(70_000), replace_all: true },
    });
    expect(result.message).toBe(
      `Edit 1: the edits would add more than ${MAX_EDIT_GROWTH_CHARS} characters to the file; at most ${MAX_EDIT_GROWTH_CHARS} are added in one call. No changes were made.`,
    );
    expect(result.brief).toBe('Invalid edit');
    expect(await textOf(file)).toBe('x\n'.repeat(1000));
  });
});

describe('decoding as ReadFile does (docs/encodings.md)', () => {
  it('edits a UTF-8 file over 1 MiB with a stray byte past 64 KiB without changing a byte outside the edit', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const before = Buffer.concat([
      Buffer.from('Café\n' + 'plain ascii line\n'.repeat(5000)),
      Buffer.from([0xe9, 0x0a]),
      Buffer.from('x'.repeat(1 << 20) + '\nEND\n'),
    ]);
    const file = await workspace.write('stray.txt', before, { readBy: runtime });
    const result = await tool.call({ path: 'stray.txt', edit: { old: 'END', new: 'FIN' } });
    expect(result.isError).toBe(false);
    const after = await bytesOf(file);
    expect(after.length).toBe(before.length);
    expect(after.subarray(0, before.length - 4).equals(before.subarray(0, before.length - 4))).toBe(true);
    expect(after.subarray(before.length - 4).toString()).toBe('FIN\n');
  });
});
