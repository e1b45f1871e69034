import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileHistory } from '@kimi-tools/core';
import type { FileSystem } from '@kimi-tools/core/fs';
import {
  backendHas,
  forwardingFileSystem,
  inPlaceFlushFailsOnce,
  recordingApproval,
  statsLostAfterRename,
  test,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { describe, expect, vi } from 'vitest';
import { failingFileSystem, isLockPath } from './__fixtures__/failing-file-system.js';
import { ApplyPatch } from './index.js';

const it = test.extend('tool', ({ runtime }) => new ApplyPatch(runtime));

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** Every file under the work dir with its bytes, temp and lock files included: what a failed patch must leave. */
async function tree(workspace: TempWorkspace, dir = ''): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await workspace.fs.readdir(workspace.at(dir))) {
    const name = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await tree(workspace, name));
    else if (entry.isFile()) files[name] = Buffer.from(await workspace.bytes(name)).toString('latin1');
  }
  return files;
}

describe('ApplyPatch: applies every section', () => {
  it('adds, edits, deletes and moves files in one call, with one approval', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    await workspace.write('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n', { readBy: runtime });
    await workspace.write('gone.ts', 'bye\n', { readBy: runtime });
    await workspace.write('old.ts', 'x\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch(
        '*** Update File: a.ts',
        '@@',
        ' const a = 1;',
        '-const b = 2;',
        '+const b = 20;',
        '*** Add File: dir/new.ts',
        '+export {};',
        '*** Delete File: gone.ts',
        '*** Update File: old.ts',
        '*** Move to: moved.ts',
        '-x',
        '+y',
      ),
    });
    expect(result.isError).toBe(false);
    expect(result.message).toBe(
      'Success. Updated the following files:\nM a.ts\nA dir/new.ts\nD gone.ts\nR old.ts -> moved.ts',
    );
    expect(result.output).toBe(
      'a.ts:\n     1\tconst a = 1;\n     2\tconst b = 20;\n     3\tconst c = 3;\n\n' +
        'dir/new.ts:\n     1\texport {};\n\nmoved.ts:\n     1\ty\n',
    );
    expect(await tree(workspace)).toEqual({
      'a.ts': 'const a = 1;\nconst b = 20;\nconst c = 3;\n',
      'dir/new.ts': 'export {};\n',
      'moved.ts': 'y\n',
    });
    expect(approval.requests).toHaveLength(1);
    expect(approval.requests[0]).toMatchObject({
      sender: 'ApplyPatch',
      action: 'edit file',
      description:
        'Apply patch to 4 files: a.ts (edit), dir/new.ts (add), gone.ts (delete), old.ts -> moved.ts (move)',
    });
    expect(new Set(approval.requests[0]!.display.map((block) => block.path))).toEqual(
      new Set([
        workspace.at('a.ts'),
        workspace.at('dir/new.ts'),
        workspace.at('gone.ts'),
        workspace.at('moved.ts'),
      ]),
    );
  });

  // docs/apply-patch.md: the lines split at ` -> `, `: ` and `, `. `R a -> b -> c` read as a move of `a` or of
  // `a -> b`.
  it('quotes a path holding a separator of its lines, in the result and the approval', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    await workspace.write('a -> b', 'x\n', { readBy: runtime });
    await workspace.write('c, d', 'y\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch(
        '*** Update File: a -> b',
        '*** Move to: e: f',
        '-x',
        '+X',
        '*** Delete File: c, d',
        '*** Add File: g`h',
        '+z',
        '*** Add File: i-1:j',
        '+w',
      ),
    });
    expect(result.message).toBe(
      'Success. Updated the following files:\nR "a -> b" -> "e: f"\nD "c, d"\nA "g`h"\nA i-1:j',
    );
    expect(result.output).toBe('"e: f":\n     1\tX\n\n"g`h":\n     1\tz\n\ni-1:j:\n     1\tw\n');
    expect(approval.requests[0]!.description).toBe(
      'Apply patch to 4 files: "a -> b" -> "e: f" (move), "c, d" (delete), "g`h" (add), i-1:j (add)',
    );
  });

  it('quotes a path holding a separator in the failure lines, and reads the quoted form back', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a: b', 'x\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: "a: b"', '-nothing', '+y', '*** Update File: c: d', '-x', '+y'),
    });
    expect(result.message).toBe(
      [
        '"a: b": chunk 1 does not match the file. Its line \'nothing\' was not found where the chunk should be.',
        '"c: d": `c: d` does not exist.',
        'No file was changed.',
      ].join('\n'),
    );
  });

  it('shows a file changed while the approval was open by its shown name, never raw', async ({
    workspace,
  }) => {
    const approval = recordingApproval(async () => {
      await workspace.write('a\nb: c', 'changed\n');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    await workspace.write('a\nb: c', 'x\n', { readBy: runtime });
    const result = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: "a\\nb: c"', '-x', '+y'),
    });
    expect(result.message).toBe(
      '"a\\nb: c": `"a\\nb: c"` has been modified since it was last read, either by the user or by another process. ' +
        'Read it again before writing to it. No file was changed.',
    );
  });

  it('keeps CRLF, a BOM and UTF-16 byte for byte outside the change', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('crlf.txt', 'one\r\ntwo\r\nthree\r\n', { readBy: runtime });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha\r\nbeta\r\n', 'utf16le')]);
    await workspace.write('wide.txt', utf16, { readBy: runtime });
    const result = await tool.call({
      patch: patch(
        '*** Update File: crlf.txt',
        ' one',
        '-two',
        '+TWO',
        '+added',
        '*** Update File: wide.txt',
        '-beta',
        '+gamma',
      ),
    });
    expect(result.isError).toBe(false);
    expect(await workspace.read('crlf.txt')).toBe('one\r\nTWO\r\nadded\r\nthree\r\n');
    const wide = Buffer.from(await workspace.bytes('wide.txt'));
    expect([...wide.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(wide.subarray(2).toString('utf16le')).toBe('alpha\r\ngamma\r\n');
  });

  it('applies a unified diff as git prints it', async ({ workspace, runtime, tool }) => {
    await workspace.write('src/a.ts', 'one\ntwo\nthree\n', { readBy: runtime });
    const result = await tool.call({
      patch:
        'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    });
    expect(result.message).toBe('Success. Updated the following files:\nM src/a.ts');
    expect(await workspace.read('src/a.ts')).toBe('one\n2\nthree\n');
  });

  it('applies git diffs of names git quotes, or ends with a tab, to those files and no other', async ({
    workspace,
    runtime,
    tool,
  }) => {
    for (const [name, text] of [
      ['x.txt ', 'same\n'],
      ['x.txt', 'same\n'],
      ['café.txt', 'one\n'],
      ['t\tb.txt', 'one\n'],
      ['"q".md', 'q\n'],
    ]) {
      await workspace.write(name!, text!, { readBy: runtime });
    }
    // As `git diff -M` prints these changes: octal bytes and C escapes between quotes, `a/` and `b/` inside them, and
    // a tab after a name holding a space.
    const gitDiff = [
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      'deleted file mode 100644',
      '--- "a/caf\\303\\251.txt"',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-one',
      'diff --git "a/\\"q\\".md" "b/r \\303\\251.md"',
      'similarity index 100%',
      'rename from "\\"q\\".md"',
      'rename to "r \\303\\251.md"',
      'diff --git "a/r\\303\\251 n\\303\\251.txt" "b/r\\303\\251 n\\303\\251.txt"',
      'new file mode 100644',
      '--- /dev/null',
      '+++ "b/r\\303\\251 n\\303\\251.txt"\t',
      '@@ -0,0 +1 @@',
      '+two',
      'diff --git "a/t\\tb.txt" "b/t\\tb.txt"',
      '--- "a/t\\tb.txt"',
      '+++ "b/t\\tb.txt"',
      '@@ -1 +1 @@',
      '-one',
      '+two',
      'diff --git a/x.txt  b/x.txt ',
      '--- a/x.txt \t',
      '+++ b/x.txt \t',
      '@@ -1 +1 @@',
      '-same',
      '+changed',
    ].join('\n');
    const result = await tool.call({ patch: gitDiff });
    expect(result.message).toBe(
      'Success. Updated the following files:\nD café.txt\nR "\\"q\\".md" -> r é.md\nA ré né.txt\nM "t\\tb.txt"\nM "x.txt "',
    );
    expect(await tree(workspace)).toEqual({
      'x.txt ': 'changed\n',
      'x.txt': 'same\n',
      'ré né.txt': 'two\n',
      't\tb.txt': 'two\n',
      'r é.md': 'q\n',
    });
  });

  it('says when a chunk needed a looser match', async ({ workspace, runtime, tool }) => {
    await workspace.write('a.py', 'def f():\n    return “x”  \n', { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: a.py', '-    return "x"', '+    return "y"'),
    });
    expect(result.message).toBe(
      'Success. Updated the following files:\nM a.py\nChunk 1 of a.py matched after normalising whitespace and typographic punctuation.',
    );
  });

  it('keeps the context lines of a loosely matched chunk as the file has them', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // The chunk's context matches only after normalising: its lines were written with the patch's quotes and
    // without the file's trailing blanks, changing lines the patch did not change.
    await workspace.write('a.py', 'a = \u201cq\u201d  \nb = 1\n\tc = 2\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: a.py', ' a = "q"', '-b = 1', '+b = 2', '   c = 2'),
    });
    expect(result.message).toBe(
      'Success. Updated the following files:\nM a.py\nChunk 1 of a.py matched after normalising whitespace and typographic punctuation.',
    );
    expect(await workspace.read('a.py')).toBe('a = \u201cq\u201d  \nb = 2\n\tc = 2\n');
  });

  it('quotes the name of a loosely matched chunk when it holds the words after it', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // `Chunk 1 of a matched after normalising b.py matched after normalising ...` named a file `a`.
    const name = 'a matched after normalising b.py';
    await workspace.write(name, 'x  \n', { readBy: runtime });
    const result = await tool.call({ patch: patch(`*** Update File: ${name}`, '-x', '+y') });
    expect(result.message).toBe(
      'Success. Updated the following files:\nM "a matched after normalising b.py"\n' +
        'Chunk 1 of "a matched after normalising b.py" matched after normalising trailing whitespace.',
    );
  });

  it('recognises a patch applied already: success, nothing written', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    await workspace.write('a.txt', 'one\n2\nthree\n', { readBy: runtime });
    const result = await tool.call({ patch: patch('*** Update File: a.txt', ' one', '-two', '+2') });
    expect(result).toMatchObject({
      isError: false,
      message:
        'The patch is already applied: the files already hold every change it makes. No file was changed.',
    });
    expect(approval.requests).toHaveLength(0);
  });

  it('recognises the same delete patch sent twice: the second is a replay', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('gone.txt', 'bye\n', { readBy: runtime });
    const remove = patch('*** Delete File: gone.txt');
    expect((await tool.call({ patch: remove })).message).toBe(
      'Success. Updated the following files:\nD gone.txt',
    );
    expect(await tool.call({ patch: remove })).toMatchObject({
      isError: false,
      message:
        'The patch is already applied: the files already hold every change it makes. No file was changed.',
      extras: { alreadyApplied: true },
    });
  });

  // A missing file to delete beside a close name may be a slip of that name: it fails with the hint, unless the rest
  // of the patch, or the history, shows the patch was applied.
  it('refuses a file to delete that is missing beside a close name, with the hint, and deletes nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    await workspace.write('a.txt', 'keep\n', { readBy: runtime });
    const before = await tree(workspace);
    const result = await tool.call({ patch: patch('*** Delete File: a.tx') });
    expect(result).toMatchObject({
      isError: true,
      brief: 'Patch failed',
      message: 'a.tx: `a.tx` does not exist. Did you mean: a.txt? No file was changed.',
    });
    expect(await tree(workspace)).toEqual(before);
    expect(approval.requests).toHaveLength(0);
  });

  it('takes a delete patch sent twice beside a close name for a replay when the history shows the file', async ({
    workspace,
  }) => {
    const remove = patch('*** Delete File: v1.txt');
    for (const history of [new FileHistory(), undefined]) {
      const runtime = workspace.runtime({ ...(history ? { history } : {}) });
      await workspace.write('v1.txt', 'one\n', { readBy: runtime });
      await workspace.write('v2.txt', 'two\n', { readBy: runtime });
      const tool = new ApplyPatch(runtime);
      expect((await tool.call({ patch: remove })).isError).toBe(false);
      expect((await tool.call({ patch: remove })).message).toBe(
        history
          ? 'The patch is already applied: the files already hold every change it makes. No file was changed.'
          : 'v1.txt: `v1.txt` does not exist. Did you mean: v2.txt? No file was changed.',
      );
    }
  });

  it('takes a missing file to delete beside a close name as deleted when the rest of the patch is applied', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.txt', 'one\n', { readBy: runtime });
    await workspace.write('b1.txt', 'old\n', { readBy: runtime });
    await workspace.write('b2.txt', 'kept\n');
    const both = patch('*** Update File: a.txt', '-one', '+1', '*** Delete File: b1.txt');
    expect((await tool.call({ patch: both })).isError).toBe(false);
    expect((await tool.call({ patch: both })).message).toBe(
      'The patch is already applied: the files already hold every change it makes. No file was changed.',
    );
  });

  it('after a patch the read state holds what was written: a second patch needs no read', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.txt', 'v1\n', { readBy: runtime });
    await tool.call({ patch: patch('*** Update File: a.txt', '-v1', '+v2') });
    const second = await tool.call({ patch: patch('*** Update File: a.txt', '-v2', '+v3') });
    expect(second.isError).toBe(false);
    expect(await workspace.read('a.txt')).toBe('v3\n');
  });
});

describe('ApplyPatch: observers', () => {
  it('tells observers of every file written, and of every file removed: a deletion and the old name of a move', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const told: string[] = [];
    runtime.changeObservers.add({
      name: 'recorder',
      changeApplied: (change) => void told.push(`applied ${change.sender} ${change.path.input}`),
      changeRemoved: (change) =>
        void told.push(
          `removed ${change.sender} ${change.path.input} ${Buffer.from(change.oldBytes).toString()}`,
        ),
    });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('gone.txt', 'bye\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: a.txt', '*** Move to: b.txt', '-a', '+b', '*** Delete File: gone.txt'),
    });
    expect(result.isError).toBe(false);
    expect(told).toEqual([
      'applied ApplyPatch b.txt',
      'removed ApplyPatch a.txt a\n',
      'removed ApplyPatch gone.txt bye\n',
    ]);
  });
});

describe('ApplyPatch: names in the form the tools show them', () => {
  it('takes a quoted name back, edits that file alone, and shows it quoted', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a\tb.txt', 'tab\n', { readBy: runtime });
    await workspace.write('a\\tb.txt', 'backslash\n', { readBy: runtime });
    const result = await tool.call({ patch: patch('*** Update File: "a\\tb.txt"', '-tab', '+TAB') });
    expect(result.message).toBe('Success. Updated the following files:\nM "a\\tb.txt"');
    expect(await workspace.read('a\tb.txt')).toBe('TAB\n');
    expect(await workspace.read('a\\tb.txt')).toBe('backslash\n');
  });

  it('shows a name that starts or ends with a space quoted, so the name it shows names that file in the next patch', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write(' lead.txt', 'lead\n', { readBy: runtime });
    await workspace.write('trail.txt ', 'trail\n', { readBy: runtime });
    const first = await tool.call({
      patch: patch(
        '*** Update File: " lead.txt"',
        '-lead',
        '+LEAD',
        '*** Update File: "trail.txt "',
        '-trail',
        '+TRAIL',
      ),
    });
    expect(first.message).toBe('Success. Updated the following files:\nM " lead.txt"\nM "trail.txt "');
    // A patch header is read trimmed, as models pad it: only the quoted form keeps the spaces of the name.
    const [lead, trail] = first.message
      .split('\n')
      .slice(1)
      .map((line) => line.slice(2));
    const second = await tool.call({
      patch: patch(
        `*** Update File: ${lead}`,
        '-LEAD',
        '+lead 2',
        `*** Update File: ${trail}`,
        '-TRAIL',
        '+trail 2',
      ),
    });
    expect(second.message).toBe('Success. Updated the following files:\nM " lead.txt"\nM "trail.txt "');
    expect(await workspace.read(' lead.txt')).toBe('lead 2\n');
    expect(await workspace.read('trail.txt ')).toBe('trail 2\n');
  });
});

describe('ApplyPatch: all of them or none', () => {
  it('names every failing section and changes nothing', async ({ workspace, runtime, tool, approval }) => {
    await workspace.write('a.txt', 'one\n', { readBy: runtime });
    await workspace.write('exists.txt', 'here\n');
    await workspace.write('unread.txt', 'u\n');
    const before = await tree(workspace);
    const result = await tool.call({
      patch: patch(
        '*** Update File: a.txt',
        '-one',
        '+1',
        '*** Add File: exists.txt',
        '+new',
        '*** Update File: unread.txt',
        '-u',
        '+U',
        '*** Delete File: missing.txt',
        '*** Update File: .env',
        '-A=1',
        '+A=2',
      ),
    });
    expect(result.brief).toBe('Patch failed');
    expect(result.message).toBe(
      [
        "exists.txt: `exists.txt` already exists. A patch adds only new files: update it with '*** Update File: exists.txt' instead.",
        'unread.txt: `unread.txt` has not been read yet. Read it first before writing to it.',
        'missing.txt: `missing.txt` does not exist.',
        '.env: `.env` appears to contain secrets (matched sensitive file pattern). Editing this file is blocked to protect credentials.',
        'No file was changed.',
      ].join('\n'),
    );
    expect(await tree(workspace)).toEqual(before);
    expect(approval.requests).toHaveLength(0);
  });

  // An added file's text went through TextEncoder, which writes a lone surrogate as U+FFFD without a word, where an
  // update refused it (docs/encodings.md: never written with a replacement character).
  it('refuses an added file holding a lone surrogate, as an update does', async ({
    workspace,
    tool,
    approval,
  }) => {
    const before = await tree(workspace);
    const result = await tool.call({ patch: patch('*** Add File: new.txt', '+a\udcffb') });
    expect(result).toMatchObject({
      brief: 'Patch failed',
      message:
        "new.txt: the new text has characters that the file's encoding (utf-8) cannot store. No file was changed.",
    });
    expect(await tree(workspace)).toEqual(before);
    expect(approval.requests).toHaveLength(0);
  });

  it.runIf(backendHas('hard-links'))(
    'refuses two sections updating one file by two of its names (hard links): the second would undo the first',
    async ({ workspace, runtime, tool, approval }) => {
      const lines = 'a1\n' + 'mid\n'.repeat(8) + 'a2\n';
      await workspace.write('a.txt', lines, { readBy: runtime });
      await workspace.link('h.txt', 'a.txt');
      await workspace.write('h.txt', lines, { readBy: runtime });
      const result = await tool.call({
        patch: patch(
          '*** Update File: a.txt',
          '@@',
          '-a1',
          '+A1',
          '*** Update File: h.txt',
          '@@',
          '-a2',
          '+A2',
        ),
      });
      expect([result.brief, result.message]).toEqual([
        'Patch failed',
        'h.txt: the file is named by more than one section of the patch. Give each file one section. No file was changed.',
      ]);
      expect(await workspace.read('a.txt')).toBe(lines);
      expect(approval.requests).toHaveLength(0);
    },
  );

  it.runIf(backendHas('hard-links'))(
    'serialises two patches at once updating one file by two of its names (hard links): none is lost',
    async ({ workspace, runtime, tool }) => {
      const lines = 'a1\n' + 'mid\n'.repeat(8) + 'a2\n';
      await workspace.write('a.txt', lines, { readBy: runtime });
      await workspace.link('h.txt', 'a.txt');
      await workspace.write('h.txt', lines, { readBy: runtime });
      // Each name has a lock file of its own, and the shared file is rewritten in place, not renamed over.
      const results = await Promise.all([
        tool.call({ patch: patch('*** Update File: a.txt', '@@', '-a1', '+A1') }),
        tool.call({ patch: patch('*** Update File: h.txt', '@@', '-a2', '+A2') }),
      ]);
      // Whichever takes the lock first lands; the other finds the file changed, whatever order they started in.
      const landed = results.findIndex((result) => !result.isError);
      expect(results.map((result) => result.isError).sort()).toEqual([false, true]);
      const [name, expected] =
        landed === 0 ? ['h.txt', lines.replace('a1', 'A1')] : ['a.txt', lines.replace('a2', 'A2')];
      expect(results[1 - landed]?.message).toContain(
        `${name}: \`${name}\` has been modified since it was last read`,
      );
      expect(await workspace.read('h.txt')).toBe(expected);
    },
  );

  it('refuses an ambiguous chunk with the candidate lines', async ({ workspace, runtime, tool }) => {
    await workspace.write('a.py', 'def f():\n    return 1\ndef g():\n    return 1\n', { readBy: runtime });
    const result = await tool.call({
      patch: patch('*** Update File: a.py', '-    return 1', '+    return 2'),
    });
    expect(result.message).toBe(
      "a.py: chunk 1 matches 2 places (lines 2, 4). Add an '@@ <line>' naming the enclosing function or class. No file was changed.",
    );
  });

  it('refuses to add or move a file below a file, naming the part that is no directory', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.txt', 'one\n', { readBy: runtime });
    const added = await tool.call({ patch: patch('*** Add File: a.txt/new/x.txt', '+x') });
    expect(added.message).toBe(
      'a.txt/new/x.txt: `a.txt/new/x.txt` cannot be created: `a.txt` is not a directory. No file was changed.',
    );
    const moved = await tool.call({
      patch: patch('*** Update File: a.txt', '*** Move to: a.txt/b.txt', '-one', '+1'),
    });
    expect(moved.message).toBe(
      'a.txt/b.txt: `a.txt/b.txt` cannot be created: `a.txt` is not a directory. No file was changed.',
    );
    expect(await tree(workspace)).toEqual({ 'a.txt': 'one\n' });
  });

  it('refuses a file changed since it was read, even away from the chunk (strict)', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.txt', 'one\ntwo\n', { readBy: runtime });
    await workspace.write('a.txt', 'one\ntwo\nthree\n');
    const result = await tool.call({ patch: patch('*** Update File: a.txt', '-one', '+1') });
    expect(result.message).toBe(
      'a.txt: `a.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it. No file was changed.',
    );
  });

  it('writes nothing when a file changes while the approval is open', async ({ workspace }) => {
    const approval = recordingApproval(async () => {
      await workspace.write('b.txt', 'user\n');
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('b.txt', 'b\n', { readBy: runtime });
    const result = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B'),
    });
    expect(result.brief).toBe('File modified');
    expect(await workspace.read('a.txt')).toBe('a\n');
    expect(await workspace.read('b.txt')).toBe('user\n');
  });

  it('writes nothing when a directory becomes a link out of the workspace while the temp files are written', async ({
    workspace,
  }) => {
    const elsewhere = workspace.outside('elsewhere');
    const base = forwardingFileSystem(workspace.fs);
    let swapped = false;
    const runtime = workspace.runtime({
      fs: {
        ...base,
        create: async (file, mode) => {
          // Another process, once every check is done: the directory moved out (with its file and lock), a link to
          // where it went put in its place, as the temp file of sub/b.txt is made.
          if (!swapped && file.startsWith(workspace.at('sub/.b.txt.kimi-tmp-'))) {
            swapped = true;
            await workspace.fs.rename(workspace.at('sub'), elsewhere);
            await workspace.fs.symlink(elsewhere, workspace.at('sub'));
          }
          return base.create(file, mode);
        },
      },
    });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('sub/b.txt', 'b\n', { readBy: runtime });
    const result = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: sub/b.txt', '-b', '+B'),
    });
    expect(swapped).toBe(true);
    expect(result.message).toBe(
      'sub/b.txt: `sub/b.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it. No file was changed.',
    );
    expect(await workspace.read('a.txt')).toBe('a\n');
    expect(await workspace.read(`${elsewhere}/b.txt`)).toBe('b\n');
    // Answered after the lock's removal, sent without waiting over SSH.
    await workspace.fs.stat(elsewhere);
    expect((await workspace.fs.readdir(elsewhere)).map((entry) => entry.name)).toEqual(['b.txt']);
    expect(await tree(workspace)).toEqual({ 'a.txt': 'a\n' });
  });

  it('writes nothing when a lock was broken as stale before the commit (a writer suspended too long)', async ({
    workspace,
  }) => {
    const lock = '.b.txt.kimi-lock';
    for (const taker of ['gone', 'held'] as const) {
      // Right before the commit (its history is saved then), b.txt's lock is broken as stale and another writer
      // edits b.txt, then lets its own lock go or still holds it.
      class BrokenMeanwhile extends FileHistory {
        override async saveUnit(
          fs: FileSystem,
          files: readonly { path: string; bytes: Uint8Array | null }[],
        ) {
          expect(await workspace.list()).toContain(lock);
          await workspace.remove(lock);
          await workspace.write('b.txt', 'theirs\n');
          if (taker === 'held') await workspace.write(lock, `${process.pid}\nanother-writer-token\n`);
          return super.saveUnit(fs, files);
        }
      }
      const runtime = workspace.runtime({ history: new BrokenMeanwhile() });
      await workspace.write('a.txt', 'a\n', { readBy: runtime });
      await workspace.write('b.txt', 'b\n', { readBy: runtime });
      const result = await new ApplyPatch(runtime).call({
        patch: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B'),
      });
      expect(result).toMatchObject({
        isError: true,
        brief: 'File modified',
        message:
          'b.txt: `b.txt` has been modified since it was last read, either by the user or by another process. Read it again before writing to it. No file was changed.',
      });
      expect(await tree(workspace)).toEqual({
        'a.txt': 'a\n',
        'b.txt': 'theirs\n',
        ...(taker === 'held' ? { [lock]: `${process.pid}\nanother-writer-token\n` } : {}),
      });
      if (taker === 'held') await workspace.remove(lock);
    }
  });

  it('restores every file when any step of the commit fails, leaving no temp file', async ({ workspace }) => {
    const files = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n', 'old.txt': 'o\n' };
    const body = patch(
      '*** Update File: a.txt',
      '-a',
      '+A',
      '*** Add File: new.txt',
      '+n',
      '*** Delete File: gone.txt',
      '*** Update File: old.txt',
      '*** Move to: moved.txt',
      '-o',
      '+O',
      '*** Update File: b.txt',
      '-b',
      '+B',
    );
    // Count the steps of a commit that succeeds, then fail each one in turn.
    const probe = failingFileSystem(workspace.fs, Number.MAX_SAFE_INTEGER);
    {
      const runtime = workspace.runtime({ fs: probe });
      for (const [name, content] of Object.entries(files))
        await workspace.write(name, content, { readBy: runtime });
      expect((await new ApplyPatch(runtime).call({ patch: body })).isError).toBe(false);
      for (const name of ['A.txt', 'new.txt', 'moved.txt', 'b.txt', 'a.txt']) await workspace.remove(name);
    }
    const steps = probe.operations.length;
    expect(steps).toBeGreaterThanOrEqual(12);
    for (let failAt = 1; failAt <= steps; failAt += 1) {
      const failing = failingFileSystem(workspace.fs, failAt);
      const history = new FileHistory();
      const runtime = workspace.runtime({ fs: failing, history });
      for (const [name, content] of Object.entries(files))
        await workspace.write(name, content, { readBy: runtime });
      const before = await tree(workspace);
      const result = await new ApplyPatch(runtime).call({ patch: body });
      expect(result.brief, `failing at step ${failAt}: ${failing.operations.at(failAt - 1)}`).toBe(
        'Patch failed',
      );
      expect(result.message).toMatch(/^Writing the patch failed: ENOSPC: .* No file was changed\.$/);
      expect(await tree(workspace), `failing at step ${failAt}`).toEqual(before);
      // Nothing changed, nothing to undo: an undo must never put the saved versions back over later edits.
      expect(history.list(), `failing at step ${failAt}`).toEqual([]);
    }
  });

  it('is a success when a stat fails past the commit (a dropped connection): the files are written', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ fs: statsLostAfterRename(workspace.fs) });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('gone.txt', 'bye\n', { readBy: runtime });
    const result = await new ApplyPatch(runtime).call({
      patch: patch(
        '*** Update File: a.txt',
        '@@',
        '-a',
        '+A',
        '*** Delete File: gone.txt',
        '*** Add File: new.txt',
        '+n',
      ),
    });
    expect([result.isError, result.message]).toEqual([
      false,
      'Success. Updated the following files:\nM a.txt\nD gone.txt\nA new.txt',
    ]);
    expect(await tree(workspace)).toEqual({ 'a.txt': 'A\n', 'new.txt': 'n\n' });
    // What was written could not be stamped: the next edit reads the file again.
    expect(runtime.fileState.get(workspace.at('a.txt'))).toBeUndefined();
  });

  it('removes at its next patch of a file a lock it failed to release, rather than waiting it out', async ({
    workspace,
  }) => {
    let lockReads: number | undefined;
    const base = forwardingFileSystem(workspace.fs);
    const runtime = workspace.runtime({
      fs: {
        ...base,
        open: async (file, mode) => {
          // The lock is read right before the commit (still this writer's?), then by the release (it removes only
          // its own): that second read fails once.
          if (
            lockReads !== undefined &&
            file.endsWith('.kimi-lock') &&
            mode === 'read' &&
            ++lockReads === 2
          ) {
            lockReads = undefined;
            throw Object.assign(new Error(`EIO: i/o error, open '${file}'`), { code: 'EIO' });
          }
          return base.open(file, mode);
        },
      },
    });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    lockReads = 0;
    const first = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '@@', '-a', '+b'),
    });
    expect(first.isError).toBe(false);
    // Over SSH a lock's release is sent, not waited for (docs/file-systems.md, `requestsInOrder`): the grave it made
    // before its look at the lock failed is removed a moment later.
    await vi.waitFor(async () => expect(await workspace.list()).toEqual(['.a.txt.kimi-lock', 'a.txt']), {
      timeout: 5_000,
    });
    const second = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '@@', '-b', '+c'),
    });
    expect([second.isError, second.message]).toEqual([
      false,
      'Success. Updated the following files:\nM a.txt',
    ]);
    await vi.waitFor(async () => expect(await workspace.list()).toEqual(['a.txt']), { timeout: 5_000 });
    expect(await workspace.read('a.txt')).toBe('c\n');
  });

  it('an unforeseen failure before the commit reads as the other failures: the error, then that nothing changed', async ({
    workspace,
  }) => {
    // The error ends its sentence: a full stop is added when it has none (a lock held past the wait has one).
    for (const [error, shown] of [
      ['ECONNRESET: the connection was lost', 'ECONNRESET: the connection was lost.'],
      [
        'b.txt is locked by another writer; try again later.',
        'b.txt is locked by another writer; try again later.',
      ],
    ]) {
      const base = workspace.fs;
      const fs: FileSystem = {
        ...forwardingFileSystem(base),
        async lstat(file) {
          if (file.endsWith('/b.txt')) throw Object.assign(new Error(error), { code: 'ECONNRESET' });
          return base.lstat(file);
        },
      };
      const runtime = workspace.runtime({ fs });
      await workspace.write('a.txt', 'a\n', { readBy: runtime });
      await workspace.write('b.txt', 'b\n', { readBy: runtime });
      const before = await tree(workspace);
      const result = await new ApplyPatch(runtime).call({
        patch: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B'),
      });
      expect(result).toMatchObject({
        brief: 'Tool failed',
        message: `Failed to run ApplyPatch. Error: ${shown} No file was changed.`,
      });
      expect(await tree(workspace)).toEqual(before);
    }
  });

  // docs/apply-patch.md: the files a failed commit could not put back were listed raw, joined by `, `.
  it('names the files it could not restore by their shown names', async ({ workspace }) => {
    const base = workspace.fs;
    const fs: FileSystem = {
      ...forwardingFileSystem(base),
      async rename(from, to) {
        if (to.endsWith('/b'))
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return base.rename(from, to);
      },
      async unlink(file) {
        if (file.endsWith('/a, 1\n')) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        return base.unlink(file);
      },
    };
    const result = await new ApplyPatch(workspace.runtime({ fs })).call({
      patch: patch('*** Add File: "a, 1\\n"', '+x', '*** Add File: b', '+y'),
    });
    expect(result.message).toBe(
      'Writing the patch failed: ENOSPC: no space left on device. These files could not be restored and may hold ' +
        `the new content: ${JSON.stringify(`${await base.realpath(workspace.workDir)}/a, 1\n`)}.`,
    );
  });

  // The error's text may quote a path raw (`open '/w/a<LF>b'`): it went into the message as it was, a line feed faking
  // a line of its own, and whole.
  it('shows the error of a failed commit as every failure text is shown', async ({ workspace }) => {
    const failingWith = (text: string): FileSystem => ({
      ...forwardingFileSystem(workspace.fs),
      async rename(from, to) {
        // Over SSH a lock is released through a rename into its grave: only the commit's renames fail.
        if (isLockPath(to)) return workspace.fs.rename(from, to);
        throw Object.assign(new Error(text), { code: 'EIO' });
      },
    });
    const failure = async (text: string) => {
      const runtime = workspace.runtime({ fs: failingWith(text) });
      await workspace.write('a.txt', 'a\n', { readBy: runtime });
      const result = await new ApplyPatch(runtime).call({
        patch: patch('*** Update File: a.txt', '-a', '+A'),
      });
      expect(await workspace.read('a.txt')).toBe('a\n');
      return result.message;
    };
    const failed = (shown: string) => `Writing the patch failed: ${shown}. No file was changed.`;
    expect(await failure("EIO: i/o error, rename 'a\nSystem: y'")).toBe(
      failed('"EIO: i/o error, rename \'a\\nSystem: y\'"'),
    );
    expect(await failure("EIO: i/o error, rename 'a\u001b[2K'")).toBe(
      failed('"EIO: i/o error, rename \'a\\u001b[2K\'"'),
    );
    const big = 'x'.repeat(1024 * 1024);
    expect(await failure(big)).toBe(
      failed(`${'x'.repeat(33_267)}[...982042 characters cut...]${'x'.repeat(33_267)}`),
    );
  });

  it('refuses a patch over a limit before reading it', async ({ runtime, workspace }) => {
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    const tool = new ApplyPatch(runtime, { maxFiles: 1 });
    const result = await tool.call({ patch: patch('*** Add File: x', '+1', '*** Add File: y', '+2') });
    expect(result).toMatchObject({
      brief: 'Patch too large',
      message:
        'The patch has 2 files; ApplyPatch takes at most 1 files in one patch. Split the change into several patches. No file was changed.',
    });
  });

  it('is one unit of history: undo restores every file at once', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('b.txt', 'b\n', { readBy: runtime });
    await new ApplyPatch(runtime).call({
      patch: patch(
        '*** Update File: a.txt',
        '-a',
        '+A',
        '*** Delete File: b.txt',
        '*** Add File: c.txt',
        '+c',
      ),
    });
    expect(await tree(workspace)).toEqual({ 'a.txt': 'A\n', 'c.txt': 'c\n' });
    await history.undo();
    expect(await tree(workspace)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  });

  it('keeps nothing of a unit whose saving failed half way, so the change before it can still be undone', async ({
    workspace,
  }) => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'kimi-history-'));
    try {
      const history = new FileHistory({ directory });
      const runtime = workspace.runtime({ history });
      await workspace.write('a.txt', 'a\n', { readBy: runtime });
      await workspace.write('b.txt', 'b\n', { readBy: runtime });
      await workspace.write('c.txt', 'c\n', { readBy: runtime });
      await new ApplyPatch(runtime).call({ patch: patch('*** Update File: c.txt', '-c', '+C') });
      // The spill file the patch's second version would take is a directory: that save fails.
      await mkdir(path.join(directory, '3.v1.bak'));
      const result = await new ApplyPatch(runtime).call({
        patch: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B'),
      });
      expect(result.isError).toBe(true);
      expect(history.list().map((entry) => path.basename(entry.path))).toEqual(['c.txt']);
      expect(await history.undo()).toHaveLength(1);
      expect(await tree(workspace)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it.runIf(backendHas('hard-links'))(
    'rolls back a hard-linked file whose rewrite in place failed, and keeps no version of it',
    async ({ workspace }) => {
      const file = workspace.at('a.txt');
      // The patch's rewrite of the shared file fails at its flush; the rollback's own rewrite then goes through.
      const fs = inPlaceFlushFailsOnce(workspace.fs, file);
      const history = new FileHistory();
      const runtime = workspace.runtime({ fs, history });
      await workspace.write('a.txt', 'original\n', { readBy: runtime });
      await workspace.link('h.txt', 'a.txt');
      const result = await new ApplyPatch(runtime).call({
        patch: patch('*** Update File: a.txt', '-original', '+agent'),
      });
      expect(result.message).toMatch(/^Writing the patch failed: EIO: .* No file was changed\.$/);
      expect(await workspace.read(file)).toBe('original\n');
      expect(history.list()).toEqual([]);
    },
  );

  // docs/file-systems.md: syncDirectory never fails; one that does comes after the renames, and the patch is written.
  it('reports as applied, with its versions kept, a patch whose directory flush failed after its files were written', async ({
    workspace,
  }) => {
    let flushes = 0;
    const fs: FileSystem = {
      ...forwardingFileSystem(workspace.fs),
      syncDirectory: (directory) =>
        ++flushes === 1
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
          : workspace.fs.syncDirectory(directory),
    };
    const history = new FileHistory();
    const runtime = workspace.runtime({ fs, history });
    await workspace.write('a.txt', 'original\n', { readBy: runtime });
    const result = await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '-original', '+agent'),
    });
    expect([result.isError, flushes]).toEqual([false, 1]);
    expect(await workspace.read(workspace.at('a.txt'))).toBe('agent\n');
    expect(await history.undo()).toHaveLength(1);
    expect(await workspace.read(workspace.at('a.txt'))).toBe('original\n');
  });

  it('makes no directory for an undo it refuses', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    await workspace.write('d/a.txt', 'a\n', { readBy: runtime });
    await workspace.write('b.txt', 'b\n', { readBy: runtime });
    await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: d/a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B'),
    });
    await workspace.remove('d/a.txt');
    await workspace.fs.rmdir(workspace.at('d'));
    await workspace.write('b.txt', 'user\n');
    await expect(history.undo()).rejects.toThrow(
      `These files changed after the change being undone: ${workspace.at('b.txt')}. Nothing was undone;`,
    );
    expect(await tree(workspace)).toEqual({ 'b.txt': 'user\n' });
    await expect(workspace.fs.stat(workspace.at('d'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('undoes no file of the unit when one of them changed after the patch', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ history });
    await workspace.write('a.txt', 'a\n', { readBy: runtime });
    await workspace.write('b.txt', 'b\n', { readBy: runtime });
    await new ApplyPatch(runtime).call({
      patch: patch('*** Update File: a.txt', '-a', '+A', '*** Delete File: b.txt'),
    });
    // The user makes b.txt again after the patch removed it.
    await workspace.write('b.txt', 'new b\n');
    await expect(history.undo()).rejects.toThrow(
      `These files changed after the change being undone: ${workspace.at('b.txt')}. Nothing was undone;`,
    );
    expect(await tree(workspace)).toEqual({ 'a.txt': 'A\n', 'b.txt': 'new b\n' });
  });
});

describe('ApplyPatch: what the model reads for a bad patch', () => {
  it('gives the first-line, last-line and header errors with the Invalid patch brief', async ({ tool }) => {
    expect(await tool.call({ patch: 'please fix it' })).toMatchObject({
      isError: true,
      brief: 'Invalid patch',
      message: "Invalid patch: the first line must be '*** Begin Patch'.",
    });
  });

  // A line or a path of the patch was echoed raw and whole: a control character in it reached the model as it was (a
  // lone CR, an ESC erasing a terminal line), and a line or a path of a megabyte came back entire.
  it('shows a line of the patch as a line of a file is shown, cut to its two ends past 200 characters', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.txt', 'one\ntwo\n', { readBy: runtime });
    const big = 'x'.repeat(1_000_000);
    const message = async (...lines: string[]) => (await tool.call({ patch: patch(...lines) })).message;
    const badHeader = (shown: string) =>
      `Invalid patch: line 2: '${shown}' is not a valid section header. Valid headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'.`;
    expect(await message('bogus \u001b[2K line')).toBe(badHeader('bogus \u241b[2K line'));
    expect(await message('bogus\rSystem: y')).toBe(badHeader('bogus\u240dSystem: y'));
    expect(await message(`bogus${big}`)).toBe(
      badHeader(`bogus${'x'.repeat(95)}[...999805 characters cut...]${'x'.repeat(100)}`),
    );
    const notFound = (shown: string) =>
      `a.txt: chunk 1 does not match the file. Its line '${shown}' was not found where the chunk should be. No file was changed.`;
    expect(await message('*** Update File: a.txt', '-one\u001b[2K', '+uno')).toBe(notFound('one\u241b[2K'));
    expect(await message('*** Update File: a.txt', '-one\rSystem: y', '+uno')).toBe(
      notFound('one\u240dSystem: y'),
    );
    expect(await message('*** Update File: a.txt', `-one${big}`, '+uno')).toBe(
      notFound(`one${'x'.repeat(97)}[...999803 characters cut...]${'x'.repeat(100)}`),
    );
    // Indentation is the line's own: it is kept as it is.
    expect(await message('*** Update File: a.txt', '-  zzz', '+uno')).toBe(notFound('  zzz'));
  });

  it('shows a path of the patch as every message shows a path, also where the patch cannot be read', async ({
    tool,
  }) => {
    const big = `a${'x'.repeat(1_000_000)}`;
    const cutBig = `a${'x'.repeat(16_382)}[...967235 characters cut...]${'x'.repeat(16_383)}`;
    const message = async (text: string) => (await tool.call({ patch: text })).message;
    const empty = (shown: string) => `Invalid patch: line 2: the chunk for '${shown}' is empty.`;
    expect(await message(patch('*** Update File: a\u001b[2K.txt'))).toBe(empty('"a\\u001b[2K.txt"'));
    expect(await message(patch('*** Update File: a\rSystem: y.txt'))).toBe(empty('"a\\rSystem: y.txt"'));
    expect(await message(patch(`*** Update File: ${big}`))).toBe(empty(cutBig));
    // A path given in the form paths are shown in is shown in that form.
    expect(await message(patch('*** Update File: "a\\tb.txt"'))).toBe(empty('"a\\tb.txt"'));
    expect(
      await message(
        [
          'diff --git a/x\u001b.bin b/x\u001b.bin',
          'Binary files a/x\u001b.bin and b/x\u001b.bin differ',
        ].join('\n'),
      ),
    ).toBe(`Invalid patch: line 2: '"x\\u001b.bin"' is a binary patch; ApplyPatch changes text files only.`);
    expect(await message(patch(`*** Delete File: ${big}`))).toBe(
      `${cutBig}: \`${cutBig}\` is not a valid path. No file was changed.`,
    );
  });

  it('says which line of a chunk did not match and where the closest text is', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.ts', 'function total(items) {\n  return items.length;\n}\n', {
      readBy: runtime,
    });
    const result = await tool.call({
      patch: patch(
        '*** Update File: a.ts',
        ' function total(items) {',
        '-  return items.size;',
        '+  return 0;',
      ),
    });
    expect(result.message).toBe(
      "a.ts: chunk 1 does not match the file. Its line '  return items.size;' was not found where the chunk should be. The closest text is at line 1:\n```\nfunction total(items) {\n  return items.length;\n```\nNo file was changed.",
    );
  });
});
