import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_EDIT_FILE_BYTES } from './limits.js';
import { StrReplaceFile } from './str-replace-file.js';
import { createWorkspace, type Workspace } from './test-support.js';

let ws: Workspace;

beforeEach(async () => {
  ws = await createWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

async function bytesOf(filePath: string): Promise<Buffer> {
  return fs.readFile(filePath);
}

async function textOf(filePath: string): Promise<string> {
  return fs.readFile(filePath, 'utf8');
}

describe('success', () => {
  it('edits a unique match, asks approval with the diff, and reports exactly', async () => {
    const file = await ws.writeRead('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await ws.tool.call({ path: 'a.ts', edit: { old: 'b = 2', new: 'b = 3' } });
    expect(result.isError).toBe(false);
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(result.brief).toBe('');
    expect(result.extras).toEqual({
      replacements: 1,
      matchedBy: 'exact',
      edits: [{ replacements: 1, matchedBy: 'exact' }],
    });
    expect(await textOf(file)).toBe('const a = 1;\nconst b = 3;\n');
    expect(ws.requests).toHaveLength(1);
    const [request] = ws.requests;
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

  it('chains edits on the running content and counts the chained match', async () => {
    const file = await ws.writeRead('chain.txt', 'alpha\n');
    const result = await ws.tool.call({
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

  it('needs no re-read between consecutive edits', async () => {
    const file = await ws.writeRead('twice.txt', 'one two\n');
    expect((await ws.tool.call({ path: file, edit: { old: 'one', new: '1' } })).isError).toBe(false);
    const second = await ws.tool.call({ path: file, edit: { old: 'two', new: '2' } });
    expect(second.isError).toBe(false);
    expect(await textOf(file)).toBe('1 2\n');
  });

  it('inserts $&, $1 and $$ literally', async () => {
    const file = await ws.writeRead('dollar.js', 'x = "a";\n');
    await ws.tool.call({ path: file, edit: { old: '"a"', new: '"$& $1 $$"' } });
    expect(await textOf(file)).toBe('x = "$& $1 $$";\n');
  });

  it('deletes a whole line with its line break', async () => {
    const file = await ws.writeRead('del.txt', 'keep 1\ndrop me\nkeep 2\n');
    const result = await ws.tool.call({ path: file, edit: { old: 'drop me', new: '' } });
    expect(result.isError).toBe(false);
    expect(await textOf(file)).toBe('keep 1\nkeep 2\n');
  });

  it('edits with a multi-line old ending with and without a newline', async () => {
    const file = await ws.writeRead('multi.txt', 'a\nb\nc\nd\n');
    await ws.tool.call({ path: file, edit: { old: 'b\nc\n', new: 'B\n' } });
    expect(await textOf(file)).toBe('a\nB\nd\n');
    await ws.tool.call({ path: file, edit: { old: 'a\nB', new: 'A\nBB' } });
    expect(await textOf(file)).toBe('A\nBB\nd\n');
  });

  it('takes the first match in match: first mode', async () => {
    const first = await createWorkspace({ match: 'first' });
    try {
      const file = await first.writeRead('f.txt', 'x\nx\n');
      const result = await first.tool.call({ path: file, edit: { old: 'x', new: 'y' } });
      expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
      expect(await textOf(file)).toBe('y\nx\n');
    } finally {
      await first.cleanup();
    }
  });

  it('refuses a match option it does not know', () => {
    const match = 'last' as unknown as 'first';
    expect(() => new StrReplaceFile(ws.runtime, { match })).toThrow(
      `StrReplaceFile: match must be 'unique' or 'first', got "last".`,
    );
  });

  it('asks EDIT_OUTSIDE for an absolute path outside the workspace', async () => {
    const outsideDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-replace-out-')));
    try {
      const file = path.join(outsideDir, 'o.txt');
      await fs.writeFile(file, 'out\n');
      await ws.markRead(file);
      const result = await ws.tool.call({ path: file, edit: { old: 'out', new: 'in' } });
      expect(result.isError).toBe(false);
      expect(ws.requests[0]?.action).toBe('edit file outside of working directory');
    } finally {
      await fs.rm(outsideDir, { recursive: true, force: true });
    }
  });

  it('asks nothing and writes nothing when the edits cancel out', async () => {
    const file = await ws.writeRead('same.txt', 'abc\n');
    const before = (await fs.stat(file)).mtimeMs;
    const result = await ws.tool.call({
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
    expect(ws.requests).toHaveLength(0);
    expect((await fs.stat(file)).mtimeMs).toBe(before);
  });
});

describe('all or nothing', () => {
  it('leaves the file untouched and asks nothing when the third edit fails', async () => {
    const original = 'one\ntwo\nthree\n';
    const file = await ws.writeRead('three.txt', original);
    const result = await ws.tool.call({
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
    expect(ws.requests).toHaveLength(0);
  });

  it('writes nothing when the user rejects, and says so', async () => {
    const rejecting = await createWorkspace({}, async () => ({ kind: 'reject', feedback: 'not now' }));
    try {
      const file = await rejecting.writeRead('r.txt', 'abc\n');
      const result = await rejecting.tool.call({ path: file, edit: { old: 'abc', new: 'xyz' } });
      expect(result).toMatchObject({
        isError: true,
        message: 'The tool call is rejected by the user. User feedback: not now',
        brief: 'Rejected: not now',
      });
      expect(await textOf(file)).toBe('abc\n');
    } finally {
      await rejecting.cleanup();
    }
  });
});

describe('edit errors', () => {
  it('refuses an empty old string', async () => {
    const file = await ws.writeRead('e.txt', 'abc\n');
    const result = await ws.tool.call({
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

  it('refuses identical strings', async () => {
    const file = await ws.writeRead('i.txt', 'abc\n');
    const result = await ws.tool.call({ path: file, edit: { old: 'abc', new: 'abc' } });
    expect(result).toMatchObject({
      isError: true,
      message: 'Edit 1: the old and new strings are identical; nothing to change.',
      brief: 'Invalid edit',
    });
  });

  it('shows the closest text when the old string is not found', async () => {
    const file = await ws.writeRead('n.py', 'def area(width, height):\n    return width * height\n');
    const result = await ws.tool.call({ path: file, edit: { old: '    return width * heigth', new: 'x' } });
    expect(result).toMatchObject({
      isError: true,
      message:
        'Edit 1: the old string was not found in the file. No changes were made. The closest text is at line 2:\n```\n    return width * height\n```',
      brief: 'No match',
    });
  });

  it('never quotes a sensitive file as the closest text', async () => {
    const file = await ws.writeRead('.env', 'API_KEY=sk-live-0123456789abcdef\n');
    const result = await ws.tool.call({
      path: file,
      edit: { old: 'API_KEY=sk-live-0123456789abcdeX', new: 'x' },
    });
    expect(result).toMatchObject({
      isError: true,
      message: 'Edit 1: the old string was not found in the file. No changes were made.',
      brief: 'No match',
    });
  });

  it('lists every line of an ambiguous match', async () => {
    const file = await ws.writeRead('amb.txt', 'x = 1\ny\nx = 1\nz\nx = 1\n');
    const result = await ws.tool.call({ path: file, edit: { old: 'x = 1', new: 'x = 2' } });
    expect(result).toMatchObject({
      isError: true,
      message:
        'Edit 1: found 3 matches of the old string (at lines 1, 3, 5). Provide more surrounding context to make it unique, or set replace_all to true.',
      brief: 'Ambiguous match',
    });
    expect(ws.requests).toHaveLength(0);
  });

  it('rejects an empty edit list and a missing field as invalid arguments', async () => {
    const empty = await ws.tool.call({ path: 'a.txt', edit: [] });
    expect(empty.brief).toBe('Invalid arguments');
    expect(empty.message.startsWith('Error validating JSON arguments: ')).toBe(true);
    const missing = await ws.tool.call({ path: 'a.txt', edit: { old: 'x' } });
    expect(missing.brief).toBe('Invalid arguments');
  });
});

describe('path and file checks', () => {
  it('refuses an empty path', async () => {
    expect(await ws.tool.call({ path: '', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: 'File path cannot be empty.',
      brief: 'Empty file path',
    });
  });

  it('refuses a path with a NUL byte', async () => {
    expect(await ws.tool.call({ path: 'a\0b', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`a\0b` is not a valid path.',
      brief: 'Invalid path',
    });
  });

  it('refuses a relative path outside the workspace with the edit wording', async () => {
    expect(await ws.tool.call({ path: '../elsewhere.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message:
        '`../elsewhere.txt` is not an absolute path. You must provide an absolute path to edit a file outside the working directory.',
      brief: 'Invalid path',
    });
  });

  it('refuses a denied path before touching the file', async () => {
    const denying = await createWorkspace({ deny: ['**/secret/**'] });
    try {
      await denying.writeRead('secret/s.txt', 'abc\n');
      expect(await denying.tool.call({ path: 'secret/s.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
        isError: true,
        message: '`secret/s.txt` is denied by the workspace policy.',
        brief: 'Access denied',
      });
    } finally {
      await denying.cleanup();
    }
  });

  it('says a missing file does not exist and suggests a similar name', async () => {
    await ws.write('config.json', '{}\n');
    expect(await ws.tool.call({ path: 'confg.json', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`confg.json` does not exist. Did you mean: config.json?',
      brief: 'File not found',
    });
    expect(await ws.tool.call({ path: 'zzzzzz.md', edit: { old: 'a', new: 'b' } })).toMatchObject({
      message: '`zzzzzz.md` does not exist.',
      brief: 'File not found',
    });
  });

  it('refuses a directory', async () => {
    await fs.mkdir(path.join(ws.dir, 'sub'));
    expect(await ws.tool.call({ path: 'sub', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`sub` is not a file.',
      brief: 'Invalid path',
    });
  });

  it('sends notebooks to NotebookEdit', async () => {
    await ws.writeRead('nb.ipynb', '{"cells": []}\n');
    expect(await ws.tool.call({ path: 'nb.ipynb', edit: { old: 'cells', new: 'x' } })).toMatchObject({
      isError: true,
      message: '`nb.ipynb` is a Jupyter notebook. Edit its cells with the NotebookEdit tool.',
      brief: 'Unsupported file type',
    });
  });

  it('refuses a file over 1 GiB (sparse) without reading it', async () => {
    const file = path.join(ws.dir, 'huge.log');
    const handle = await fs.open(file, 'w');
    await handle.truncate(MAX_EDIT_FILE_BYTES + 1);
    await handle.close();
    expect(await ws.tool.call({ path: 'huge.log', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: `\`huge.log\` is too large to edit (${MAX_EDIT_FILE_BYTES + 1} bytes).`,
      brief: 'File too large',
    });
  });

  it('never rewrites a binary file', async () => {
    const bytes = Buffer.from([0x61, 0x00, 0x62, 0xff, 0x00, 0x01]);
    const file = await ws.writeRead('blob.bin', bytes);
    expect(await ws.tool.call({ path: 'blob.bin', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`blob.bin` is not a valid text file in a supported encoding; it was not changed.',
      brief: 'Unsupported encoding',
    });
    expect(await bytesOf(file)).toEqual(bytes);
  });

  it('requires a read first, and a fresh one after an outside change', async () => {
    const file = await ws.write('unread.txt', 'abc\n');
    expect(await ws.tool.call({ path: 'unread.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message: '`unread.txt` has not been read yet. Read it first before writing to it.',
      brief: 'File not read',
    });
    await ws.markRead(file);
    await fs.writeFile(file, 'abcdef\n');
    expect(await ws.tool.call({ path: 'unread.txt', edit: { old: 'a', new: 'b' } })).toMatchObject({
      isError: true,
      message:
        '`unread.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
      brief: 'File modified',
    });
    expect(await textOf(file)).toBe('abcdef\n');
  });

  it('edits without a read when readBeforeWrite is off', async () => {
    const relaxed = await createWorkspace({ readBeforeWrite: false });
    try {
      const file = await relaxed.write('x.txt', 'abc\n');
      expect((await relaxed.tool.call({ path: file, edit: { old: 'b', new: 'B' } })).isError).toBe(false);
      expect(await textOf(file)).toBe('aBc\n');
    } finally {
      await relaxed.cleanup();
    }
  });

  it('turns an unexpected exception into the generic failure', async () => {
    const failing = await createWorkspace({}, async () => {
      throw new Error('approval UI crashed');
    });
    try {
      const file = await failing.writeRead('f.txt', 'abc\n');
      expect(await failing.tool.call({ path: file, edit: { old: 'b', new: 'B' } })).toMatchObject({
        isError: true,
        message: 'Failed to edit. Error: approval UI crashed',
        brief: 'Failed to edit file',
      });
      expect(await textOf(file)).toBe('abc\n');
    } finally {
      await failing.cleanup();
    }
  });
});
