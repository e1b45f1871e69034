import { recordingApproval, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const PY = Array.from({ length: 12 }, (_, index) => `def f${index + 1}():\n    return ${index + 1}\n`).join(
  '',
);

describe('a file changed since the read', () => {
  it('applies an edit away from the changed lines, says which lines changed, and shows the real diff', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    // A formatter touches the top of the file after the read.
    const formatted = `# formatted\n${PY.replace('return 1\n', 'return  1\n')}`;
    await workspace.write(file, formatted);
    const result = await tool.call({ path: file, edit: { old: '    return 12', new: '    return 120' } });
    expect(result.isError).toBe(false);
    expect(result.message).toBe(
      "File successfully edited. Applied 1 edit(s) with 1 total replacement(s). The file had changed since it was last read (lines 1, 3 changed, in the current file's numbering); the edit(s) were applied to its current content, away from those lines.",
    );
    expect(await workspace.read(file)).toBe(formatted.replace('return 12', 'return 120'));
    expect(approval.requests[0]?.display).toMatchObject([
      { oldText: expect.stringContaining('    return 12') },
    ]);
    expect(approval.requests[0]?.display[0]).toMatchObject({ newStart: 22 });
    // The write is the new read state: a second edit needs no read.
    expect((await tool.call({ path: file, edit: { old: 'return 11', new: 'return 110' } })).message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).',
    );
  });

  // One changed line read `lines 8 changed`, and removals at two places `before line 3, 7`.
  it('names one changed line, and several places of removed lines, in the singular and plural they need', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    await workspace.write(file, PY.replace('return 4\n', 'return 40\n'));
    expect((await tool.call({ path: file, edit: { old: 'return 9', new: 'return 90' } })).message).toContain(
      "(line 8 changed, in the current file's numbering)",
    );
    const other = await workspace.write('other.py', PY, { readBy: runtime });
    await workspace.write(
      other,
      PY.replace('def f2():\n    return 2\n', '').replace('def f5():\n    return 5\n', ''),
    );
    expect((await tool.call({ path: other, edit: { old: 'return 9', new: 'return 90' } })).message).toContain(
      "(lines were removed before lines 3, 7, in the current file's numbering)",
    );
  });

  it('names lines removed since the read', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    await workspace.write(file, PY.replace('def f2():\n    return 2\n', ''));
    const result = await tool.call({ path: file, edit: { old: 'return 9', new: 'return 90' } });
    expect(result.message).toContain('(lines were removed before line 3, in the current file');
  });

  it('refuses an edit whose lines changed, showing them and the diff since the read, writing nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    const changed = PY.replace('    return 5\n', '    return 5  # user fix\n');
    await workspace.write(file, changed);
    const result = await tool.call({
      path: file,
      edit: { old: 'def f5():\n    return 5  # user fix', new: 'def f5():\n    return 50' },
    });
    expect(result.brief).toBe('File modified');
    expect(result.message).toBe(
      '`' +
        file +
        '` has been modified since it was last read, and the change touches the lines the edit would change (lines 9-10). No changes were made. Those lines now read:\n```\n     9\tdef f5():\n    10\t    return 5  # user fix\n```\nWhat changed since the read:\n```diff\n@@ -7,7 +7,7 @@\n def f4():\n     return 4\n def f5():\n-    return 5\n+    return 5  # user fix\n def f6():\n     return 6\n def f7():\n```\nEdit against the current lines.',
    );
    expect(await workspace.read(file)).toBe(changed);
    expect(approval.requests).toHaveLength(0);
  });

  it('refuses with the lines there now and the diff when the change took the old text itself', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    const changed = PY.replace('    return 7\n', '    return seven()\n');
    await workspace.write(file, changed);
    const result = await tool.call({
      path: file,
      edit: { old: 'def f7():\n    return 7', new: 'def f7():\n    return 70' },
    });
    expect(result.brief).toBe('File modified');
    expect(result.message).toBe(
      '`' +
        file +
        '` has been modified since it was last read, and the change touches the lines the edit would change (line 14). No changes were made. Those lines now read:\n```\n    14\t    return seven()\n```\nWhat changed since the read:\n```diff\n@@ -11,7 +11,7 @@\n def f6():\n     return 6\n def f7():\n-    return 7\n+    return seven()\n def f8():\n     return 8\n def f9():\n```\nEdit against the current lines.',
    );
    expect(await workspace.read(file)).toBe(changed);
    const invented = await tool.call({ path: file, edit: { old: 'def f99():', new: 'def g():' } });
    expect(invented.brief).toBe('No match');
  });

  it('keeps the diff it shows to 40 lines', async ({ workspace, runtime, tool }) => {
    const many = Array.from({ length: 40 }, (_, index) => `def g${index}():\n    return ${index}\n`).join('');
    const file = await workspace.write('funcs.py', many, { readBy: runtime });
    await workspace.write(file, many.replace(/return (\d+)/g, 'return -$1'));
    const result = await tool.call({ path: file, edit: { old: 'return -5\n', new: 'return 5\n' } });
    expect(result.brief).toBe('File modified');
    const diff = result.message.split('```diff\n')[1]?.split('\n```')[0]?.split('\n') ?? [];
    expect(diff).toHaveLength(40);
    expect(diff.at(-1)).toMatch(/^\.\.\. \d+ more diff lines not shown$/);
  });

  it('keeps the strict refusal with modifiedSinceRead: refuse', async ({ workspace, runtime }) => {
    const tool = new StrReplaceFile(runtime, { modifiedSinceRead: 'refuse' });
    const file = await workspace.write('funcs.py', PY, { readBy: runtime });
    await workspace.write(file, `# formatted\n${PY}`);
    const result = await tool.call({ path: file, edit: { old: 'return 12', new: 'return 120' } });
    expect(result.message).toBe(
      '`' +
        file +
        '` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.',
    );
    expect(() => new StrReplaceFile(runtime, { modifiedSinceRead: 'merge' as 'refuse' })).toThrow(
      /modifiedSinceRead/,
    );
  });

  it('refuses a file too large to keep its text, and a change while the approval is pending', async ({
    workspace,
  }) => {
    let target = '';
    const runtime = workspace.runtime({
      approval: recordingApproval(async () => {
        await workspace.append(target, '# meanwhile\n');
        return { kind: 'approve' };
      }),
    });
    const tool = new StrReplaceFile(runtime);
    target = await workspace.write('funcs.py', PY, { readBy: runtime });
    await workspace.write(target, `# formatted\n${PY}`);
    const pending = await tool.call({ path: target, edit: { old: 'return 12', new: 'return 120' } });
    expect(pending.brief).toBe('File modified');
    expect(await workspace.read(target)).toBe(`# formatted\n${PY}# meanwhile\n`);

    const big = `${'x = 1\n'.repeat(200_000)}end = 0\n`;
    const bigFile = await workspace.write('big.py', big, { readBy: workspace.runtime() });
    const own = workspace.runtime();
    await workspace.write('big.py', big, { readBy: own });
    await workspace.write(bigFile, `# top\n${big}`);
    const refused = await new StrReplaceFile(own).call({
      path: bigFile,
      edit: { old: 'end = 0', new: 'end = 1' },
    });
    expect(refused.message).toContain('Read it again before writing to it.');
  });
});
