import path from 'node:path';
import { markRead, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `tool`: a StrReplaceFile on the workspace's runtime. */
const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

function utf16le(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf16le');
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

describe('line endings', () => {
  it('replace_all on a CRLF file keeps every CRLF', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('crlf.txt', 'foo = 1\r\nbar = foo\r\nfoo()\r\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'foo', new: 'baz', replace_all: true } });
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 3 total replacement(s).');
    expect(Buffer.from(await workspace.bytes(file)).toString('latin1')).toBe(
      'baz = 1\r\nbar = baz\r\nbaz()\r\n',
    );
  });

  it('matches LF strings in a CRLF file, writes CRLF, and says it normalised line endings', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('crlf2.txt', 'a\r\nb\r\nc\r\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'a\nb\n', new: 'A\nB\nB2\n' } });
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising line endings.',
    );
    expect(result.extras).toEqual({
      replacements: 1,
      matchedBy: 'line-endings',
      edits: [{ replacements: 1, matchedBy: 'line-endings' }],
    });
    expect(Buffer.from(await workspace.bytes(file)).toString('latin1')).toBe('A\r\nB\r\nB2\r\nc\r\n');
  });

  it('keeps the endings of untouched lines in a mixed-ending file', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('mixed.txt', 'one\r\ntwo\nthree\r\nfour\r\nfive\rsix\n', {
      readBy: runtime,
    });
    await tool.call({ path: file, edit: { old: 'three', new: 'THREE\nand more' } });
    // CRLF is dominant, so the new line gets CRLF; every other line keeps its own ending.
    expect(Buffer.from(await workspace.bytes(file)).toString('latin1')).toBe(
      'one\r\ntwo\nTHREE\r\nand more\r\nfour\r\nfive\rsix\n',
    );
  });
});

describe('old Mac and UTF-16 BE files', () => {
  it('edits a CR-only file and keeps its CRs', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('mac.txt', 'one\rtwo\rthree\r', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'two\nthree', new: '2\n3\n3.5' } });
    expect(result.extras).toMatchObject({ matchedBy: 'line-endings' });
    expect(Buffer.from(await workspace.bytes(file)).toString('latin1')).toBe('one\r2\r3\r3.5\r');
  });

  it('keeps UTF-16 BE with its BOM', async ({ workspace, runtime, tool }) => {
    const encode = (text: string) =>
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const file = await workspace.write('be.txt', encode('caf\u00e9 \ud83d\ude00\n'), { readBy: runtime });
    await tool.call({ path: file, edit: { old: '\ud83d\ude00', new: '\ud83c\udf75 tea' } });
    expect(Buffer.from(await workspace.bytes(file))).toEqual(encode('caf\u00e9 \ud83c\udf75 tea\n'));
  });

  it('quotes the closest text of a CRLF file without carriage returns', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('near.txt', 'alpha = compute(1)\r\nbeta = compute(2)\r\n', {
      readBy: runtime,
    });
    const result = await tool.call({ path: file, edit: { old: 'beta = compute(3)', new: 'x' } });
    expect(result.message).toBe(
      'Edit 1: the old string was not found in the file. No changes were made. The closest text is at line 2:\n```\nbeta = compute(2)\n```',
    );
  });
});

describe('looser levels through the tool', () => {
  it('combines indentation and curly quotes, keeping both styles', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('doc.py', 'def hello():\n    print(\u201Chi there\u201D)\n', {
      readBy: runtime,
    });
    const result = await tool.call({
      path: file,
      edit: { old: 'print("hi there")', new: 'print("hello there")\nreturn "done"' },
    });
    expect(result.extras).toMatchObject({ matchedBy: 'quotes' });
    // A quotes-level match inside the line: the rest of the line stays, new lines are not re-indented.
    expect(await workspace.read(file)).toBe(
      'def hello():\n    print(\u201Chello there\u201D)\nreturn \u201Cdone\u201D\n',
    );
    // Indented one level deeper and curly in the file: the whitespace level carries both into new.
    const nested = await workspace.write(
      'nested.py',
      'def f():\n    if ok:\n        print(\u201Chi\u201D)\n',
      { readBy: runtime },
    );
    const shifted = await tool.call({
      path: nested,
      edit: { old: 'if ok:\n    print("hi")', new: 'if ok:\n    print("bye")\n    return' },
    });
    expect(shifted.extras).toMatchObject({ matchedBy: 'whitespace' });
    expect(await workspace.read(nested)).toBe(
      'def f():\n    if ok:\n        print(\u201Cbye\u201D)\n        return\n',
    );
  });

  it('edits curly-quoted prose with straight quotes and keeps the curly style', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const prose = 'He called it \u201Cthe plan\u201D and said it wasn\u2019t ready.\n';
    const file = await workspace.write('prose.md', prose, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: 'called it "the plan" and said it wasn\'t',
        new: 'called it "the new plan" and said it isn\'t',
      },
    });
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising quotes.',
    );
    expect(await workspace.read(file)).toBe(
      'He called it \u201Cthe new plan\u201D and said it isn\u2019t ready.\n',
    );
  });

  it('matches a Python block indented one level deeper than old and re-indents new', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const source =
      'class Shop:\n    def total(self):\n        if self.items:\n            return sum(self.items)\n        return 0\n';
    const file = await workspace.write('shop.py', source, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: 'if self.items:\n    return sum(self.items)',
        new: 'if self.items:\n    subtotal = sum(self.items)\n    return subtotal',
      },
    });
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising whitespace.',
    );
    expect(await workspace.read(file)).toBe(
      'class Shop:\n    def total(self):\n        if self.items:\n            subtotal = sum(self.items)\n            return subtotal\n        return 0\n',
    );
  });

  // Issue 20.4 changed this expectation: spaces for a tab-indented file now match at the `indentation` level.
  it('lets spaces match a tab-indented file at the indentation level', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('tabs.go', 'func f() {\n\treturn 1\n}\n', { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'func f() {\n    return 1\n}', new: 'x' } });
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising tabs and spaces in indentation.',
    );
    expect(await workspace.read(file)).toBe('x\n');
  });

  it('refuses a loose match that is not unique', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('twice.py', 'if a:\n    go()\nif b:\n        go()\n', {
      readBy: runtime,
    });
    const result = await tool.call({ path: file, edit: { old: 'go()  ', new: 'stop()' } });
    expect(result).toMatchObject({
      brief: 'Ambiguous match',
      message:
        'Edit 1: found 2 matches of the old string (at lines 2, 4). Provide more surrounding context to make it unique, or set replace_all to true.',
    });
  });
});

describe('replace_all and line breaks', () => {
  it('says where an LF old is in a CRLF file, and how to replace it there, changing nothing', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('crlf.txt', 'alpha\r\nbeta\r\nalpha\r\nbeta\r\n', { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: { old: 'alpha\nbeta', new: 'ALPHA\nBETA', replace_all: true },
    });
    expect(result).toMatchObject({
      isError: true,
      brief: 'No match',
      message:
        "Edit 1: the old string was not found in the file. No changes were made. With line breaks read as \\n, it is at lines 1, 3: replace_all replaces exact text only, and this file's line breaks are \\r\\n. Write the line breaks of old and new as \\r\\n, or replace each place with an edit of its own.",
    });
    expect(await workspace.read(file)).toBe('alpha\r\nbeta\r\nalpha\r\nbeta\r\n');
    // Done as the message says, every place is replaced and the file keeps its CRLF.
    const again = await tool.call({
      path: file,
      edit: { old: 'alpha\r\nbeta', new: 'ALPHA\r\nBETA', replace_all: true },
    });
    expect(again.isError).toBe(false);
    expect(await workspace.read(file)).toBe('ALPHA\r\nBETA\r\nALPHA\r\nBETA\r\n');
  });
});

describe('encodings and bytes', () => {
  it('keeps a UTF-8 BOM', async ({ workspace, runtime, tool }) => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nworld\n', 'utf8')]);
    const file = await workspace.write('bom.txt', bytes, { readBy: runtime });
    await tool.call({ path: file, edit: { old: 'world', new: 'wörld' } });
    expect(Buffer.from(await workspace.bytes(file))).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nwörld\n', 'utf8')]),
    );
  });

  it('keeps UTF-16 LE with its BOM and CRLF', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('wide.txt', utf16le('first\r\nsecond\r\n', true), { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'second\n', new: 'second\nthird\n' } });
    expect(result.isError).toBe(false);
    expect(Buffer.from(await workspace.bytes(file))).toEqual(utf16le('first\r\nsecond\r\nthird\r\n', true));
  });

  it('edits the ASCII part of a GBK file and leaves every other byte identical', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // "中文注释" in GBK, repeated so the encoding is unmistakable, around an ASCII line.
    const gbkText = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xd7, 0xa2, 0xca, 0xcd]);
    const before = Buffer.concat([
      Buffer.from('# '),
      gbkText,
      gbkText,
      Buffer.from('\nvalue = 1\n# '),
      gbkText,
      Buffer.from('\n'),
    ]);
    const file = await workspace.write('gbk.py', before, { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'value = 1', new: 'value = 42' } });
    expect(result.isError).toBe(false);
    const expected = Buffer.concat([
      Buffer.from('# '),
      gbkText,
      gbkText,
      Buffer.from('\nvalue = 42\n# '),
      gbkText,
      Buffer.from('\n'),
    ]);
    expect(Buffer.from(await workspace.bytes(file))).toEqual(expected);
  });

  it('edits a 10 MB file once, changing only the replaced bytes', async ({ workspace, runtime, tool }) => {
    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    const half = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
    const before = `${half}UNIQUE MARKER\n${half}`;
    const file = await workspace.write('big.txt', before, { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: 'UNIQUE MARKER', new: 'CHANGED' } });
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await workspace.read(file)).toBe(`${half}CHANGED\n${half}`);
  });
});

describe('file system', () => {
  it('keeps the permission bits', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('run.sh', '#!/bin/sh\necho hi\n', { readBy: runtime });
    await workspace.fs.chmod(file, 0o751);
    await markRead(runtime, file);
    await tool.call({ path: file, edit: { old: 'hi', new: 'hello' } });
    expect((await workspace.fs.stat(file)).mode & 0o7777).toBe(0o751);
    expect(await workspace.read(file)).toBe('#!/bin/sh\necho hello\n');
  });

  it('edits through a symlink and keeps the link a link', async ({ workspace, runtime, tool, approval }) => {
    const target = await workspace.write('real/target.txt', 'linked text\n');
    const link = path.join(workspace.workDir, 'link.txt');
    await workspace.fs.symlink(target, link);
    await markRead(runtime, link);
    const result = await tool.call({ path: 'link.txt', edit: { old: 'linked', new: 'edited' } });
    expect(result.isError).toBe(false);
    expect((await workspace.fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await workspace.fs.readlink(link)).toBe(target);
    expect(await workspace.read(target)).toBe('edited text\n');
    expect(approval.requests[0]?.description).toBe(`Edit file \`${target}\``);
  });
});
