import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const GO = 'package main\n\nfunc add(a, b int) int {\n\tif a > 0 {\n\t\treturn a + b\n\t}\n\treturn b\n}\n';
const PY = 'def area(r):\n    if r < 0:\n        raise ValueError("r")\n    return 3.14 * r * r\n';

describe('line-number prefixes copied from ReadFile', () => {
  it('strips them from old and new when every line has one, numbered in order', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('area.py', PY, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: '     2\t    if r < 0:\n     3\t        raise ValueError("r")',
        new: '     2\t    if r <= 0:\n     3\t        raise ValueError("r must be positive")',
      },
    });
    expect(result.message).toBe(
      'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising line-number prefixes.',
    );
    expect(result.extras).toMatchObject({ matchedBy: 'line-numbers' });
    expect(await workspace.read(file)).toBe(
      PY.replace('r < 0', 'r <= 0').replace('"r"', '"r must be positive"'),
    );
  });

  it('keeps new as given when it carries no prefixes', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('area.py', PY, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: { old: '     4\t    return 3.14 * r * r', new: '    return math.pi * r * r' },
    });
    expect(result.isError).toBe(false);
    expect(await workspace.read(file)).toBe(PY.replace('3.14', 'math.pi'));
  });

  it('is not tried with replace_all, nor when the numbers do not count up', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('area.py', PY, { readBy: runtime });
    const all = await tool.call({
      path: file,
      edit: { old: '     4\t    return', new: '    yield', replace_all: true },
    });
    expect(all.brief).toBe('No match');
    const jumbled = await tool.call({
      path: file,
      edit: { old: '     3\t    if r < 0:\n     2\t        raise ValueError("r")', new: 'x' },
    });
    expect(jumbled.brief).toBe('No match');
    expect(await workspace.read(file)).toBe(PY);
  });
});

describe('tabs and spaces in indentation', () => {
  it('matches a Go file indented with tabs from an old indented with spaces and writes new with tabs', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('add.go', GO, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: '    if a > 0 {\n        return a + b\n    }',
        new: '    if a > 0 && b > 0 {\n        sum := a + b\n        return sum\n    }',
      },
    });
    expect(result.extras).toMatchObject({ matchedBy: 'indentation' });
    expect(result.message).toContain('Edit 1 matched after normalising tabs and spaces in indentation.');
    expect(await workspace.read(file)).toBe(
      'package main\n\nfunc add(a, b int) int {\n\tif a > 0 && b > 0 {\n\t\tsum := a + b\n\t\treturn sum\n\t}\n\treturn b\n}\n',
    );
  });

  it('matches a Python file indented with spaces from an old indented with tabs and writes new with spaces', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('area.py', PY, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: '\tif r < 0:\n\t\traise ValueError("r")',
        new: '\tif r < 0:\n\t\tlog("bad")\n\t\traise ValueError("r")',
      },
    });
    expect(result.extras).toMatchObject({ matchedBy: 'indentation' });
    expect(await workspace.read(file)).toBe(
      'def area(r):\n    if r < 0:\n        log("bad")\n        raise ValueError("r")\n    return 3.14 * r * r\n',
    );
  });

  it('takes the line-number prefixes and the indentation together', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('add.go', GO, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: { old: '     7\t    return b', new: '     7\t    return -b' },
    });
    expect(result.extras).toMatchObject({ matchedBy: 'line-numbers' });
    expect(await workspace.read(file)).toBe(GO.replace('\treturn b\n', '\treturn -b\n'));
  });

  it('refuses a tab-indented old that matches two places at two widths, naming both', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // One block indented 2 spaces per level, one 4: a tab reads as either width, so each matches at its own.
    const text = 'def two():\n  if ready:\n    go()\n\ndef four():\n    if ready:\n        go()\n';
    const file = await workspace.write('widths.py', text, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: { old: '\tif ready:\n\t\tgo()', new: '\tif ready:\n\t\tstop()' },
    });
    expect(result.brief).toBe('Ambiguous match');
    expect(result.message).toBe(
      'Edit 1: found 2 matches of the old string (at lines 2, 6). Provide more surrounding context to make it unique, or set replace_all to true.',
    );
    expect(await workspace.read(file)).toBe(text);
  });

  it('refuses a space-indented old that matches two places of a tab file at two widths', async ({
    workspace,
    runtime,
    tool,
  }) => {
    // At 4 spaces a tab, old is the first block; at 2, the second (its body one tab deeper, the whole one tab less).
    const text = 'func a() {\n\tif ok {\n\t\trun()\n\t}\n\tif ok {\n\t\t\trun()\n\t}\n}\n';
    const file = await workspace.write('widths.go', text, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: { old: '    if ok {\n        run()\n    }', new: '    if ok {\n        stop()\n    }' },
    });
    expect(result.message).toBe(
      'Edit 1: found 2 matches of the old string (at lines 2, 5). Provide more surrounding context to make it unique, or set replace_all to true.',
    );
    expect(await workspace.read(file)).toBe(text);
  });

  it('refuses when the rewritten old matches more than one place', async ({ workspace, runtime, tool }) => {
    const file = await workspace.write('twice.go', 'func a() {\n\tx++\n}\nfunc b() {\n\tx++\n}\n', {
      readBy: runtime,
    });
    const result = await tool.call({ path: file, edit: { old: '    x++', new: '    x--' } });
    expect(result.brief).toBe('Ambiguous match');
    expect(await workspace.read(file)).toBe('func a() {\n\tx++\n}\nfunc b() {\n\tx++\n}\n');
  });
});
