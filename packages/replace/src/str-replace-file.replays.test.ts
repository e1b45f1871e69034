import { markRead, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const JS = 'function total(a, b) {\n  return a + b;\n}\n\nfoo();\nmain();\n';

describe('replays and edits against replaced text', () => {
  it('answers a replay after a lost answer as already applied, asking and writing nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('total.js', JS, { readBy: runtime });
    const edit = { old: '  return a + b;', new: '  return a + b + 0;' };
    expect((await tool.call({ path: file, edit })).isError).toBe(false);
    const before = await workspace.fs.stat(file);
    const replay = await tool.call({ path: file, edit });
    expect(replay.isError).toBe(false);
    expect(replay.message).toBe(
      'File unchanged: the edit(s) were already applied by an earlier call in this session (edit 1 at line 2). Nothing was written.',
    );
    expect(replay.extras).toEqual({
      replacements: 0,
      matchedBy: 'exact',
      edits: [{ replacements: 0, matchedBy: 'exact' }],
      alreadyApplied: true,
    });
    expect(replay.output).toContain('     2\t  return a + b + 0;\n');
    expect(approval.requests).toHaveLength(1);
    expect((await workspace.fs.stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await workspace.read(file)).toBe(JS.replace('a + b;', 'a + b + 0;'));
  });

  it('never inserts a second copy when an insertion after an anchor is replayed', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('calls.js', JS, { readBy: runtime });
    const edit = { old: 'foo();', new: 'foo();\nbar();' };
    expect((await tool.call({ path: file, edit })).isError).toBe(false);
    const replay = await tool.call({ path: file, edit });
    expect(replay.extras).toMatchObject({ alreadyApplied: true });
    expect(replay.message).toContain('(edit 1 at line 5)');
    expect(await workspace.read(file)).toBe(JS.replace('foo();', 'foo();\nbar();'));
  });

  it('shows the current lines when old is text an earlier edit replaced', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('total.js', JS, { readBy: runtime });
    await tool.call({
      path: file,
      edit: { old: '  return a + b;', new: '  const sum = a + b;\n  return sum;' },
    });
    const stale = await tool.call({ path: file, edit: { old: 'return a + b;', new: 'return b + a;' } });
    expect(stale.brief).toBe('No match');
    expect(stale.message).toBe(
      'Edit 1: the old string was not found in the file. No changes were made. An earlier edit in this session replaced that text; lines 2-3 now read (with a line around):\n```\n     1\tfunction total(a, b) {\n     2\t  const sum = a + b;\n     3\t  return sum;\n     4\t}\n```',
    );
  });

  it('shows where the text is now when a first edit is re-sent after a follow-up edit replaced its text', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('total.js', JS, { readBy: runtime });
    const first = { old: '  return a + b;', new: '  return a + b + 0;' };
    expect((await tool.call({ path: file, edit: first })).isError).toBe(false);
    const followUp = { old: '  return a + b + 0;', new: '  return (a + b) * 2;' };
    expect((await tool.call({ path: file, edit: followUp })).isError).toBe(false);
    const written = await workspace.read(file);
    const replay = await tool.call({ path: file, edit: first });
    expect(replay.brief).toBe('No match');
    expect(replay.message).toBe(
      'Edit 1: the old string was not found in the file. No changes were made. An earlier edit in this session replaced that text; line 2 now reads (with a line around):\n```\n     1\tfunction total(a, b) {\n     2\t  return (a + b) * 2;\n     3\t}\n```',
    );
    expect(await workspace.read(file)).toBe(written);
    // Followed edit by edit: a third edit that replaced the follow-up's text in turn, and two lines now.
    const third = { old: '  return (a + b) * 2;', new: '  const sum = a + b;\n  return sum * 2;' };
    expect((await tool.call({ path: file, edit: third })).isError).toBe(false);
    expect((await tool.call({ path: file, edit: first })).message).toBe(
      'Edit 1: the old string was not found in the file. No changes were made. An earlier edit in this session replaced that text; lines 2-3 now read (with a line around):\n```\n     1\tfunction total(a, b) {\n     2\t  const sum = a + b;\n     3\t  return sum * 2;\n     4\t}\n```',
    );
  });

  it('answers a re-sent list as already applied, and refuses a list mixing applied and new edits', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('list.js', JS, { readBy: runtime });
    const list = [
      { old: 'foo();', new: 'foo(1);' },
      { old: 'main();', new: 'main(1);' },
    ];
    await tool.call({ path: file, edit: list });
    const replay = await tool.call({ path: file, edit: list });
    expect(replay.message).toBe(
      'File unchanged: the edit(s) were already applied by an earlier call in this session (edit 1 at line 5, edit 2 at line 6). Nothing was written.',
    );
    const written = await workspace.read(file);
    const mixed = await tool.call({
      path: file,
      edit: [list[0]!, { old: 'function total', new: 'function sum' }],
    });
    expect(mixed.brief).toBe('Already applied');
    expect(mixed.message).toBe(
      'Edit 1 was already applied by an earlier call in this session (edit 1 at line 5); the other edits were not. No changes were made. Send only the edits not applied yet.',
    );
    expect(await workspace.read(file)).toBe(written);
  });

  it('claims nothing from text this runtime did not write', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('own.js', 'x = 2;\n', { readBy: runtime });
    const missing = await tool.call({ path: file, edit: { old: 'x = 1;', new: 'x = 2;' } });
    expect(missing.brief).toBe('No match');
    await tool.call({ path: file, edit: { old: 'x = 2;', new: 'x = 3;' } });
    const other = workspace.runtime();
    await markRead(other, file);
    const replayElsewhere = await new StrReplaceFile(other).call({
      path: file,
      edit: { old: 'x = 2;', new: 'x = 3;' },
    });
    expect(replayElsewhere.brief).toBe('No match');
  });
});
