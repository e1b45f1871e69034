import { StrReplaceFile } from '@kimi-tools/replace';
import { test } from '@kimi-tools/test-kit';
import { WriteFile } from '@kimi-tools/write';
import { describe, expect } from 'vitest';
import { addDiagnostics } from './add-diagnostics.js';
import type { DiagnosticsReport } from './report/diagnostics-report.js';

const EDITED = 'File successfully edited. Applied 1 edit(s) with 1 total replacement(s).';

/** Each checked language: a clean file, an edit that breaks it, and the first problem reported. */
const BREAKS: Record<string, { clean: string; old: string; new: string; first: string }> = {
  'a.ts': {
    clean: 'const a: number = 1;\n',
    old: '= 1',
    new: '= ',
    first: 'a.ts:1:19 error Expression expected.',
  },
  'a.tsx': {
    clean: 'export const A = () => <b>x</b>;\n',
    old: '</b>',
    new: '</i>',
    first: "a.tsx:1:30 error Expected corresponding JSX closing tag for 'b'.",
  },
  'a.js': { clean: 'let a = [1, 2];\n', old: '2]', new: '2', first: "a.js:1:14 error ',' expected." },
  'a.jsx': {
    clean: 'const a = <p>{x}</p>;\n',
    old: '{x}',
    new: '{x',
    first: "a.jsx:1:16 error '}' expected.",
  },
  'a.json': { clean: '{"a": 1}\n', old: '1', new: '1,', first: 'a.json:1:9 error Property name expected' },
  'a.yaml': {
    clean: 'a: 1\nb: [2]\n',
    old: '[2]',
    new: '[2',
    first:
      'a.yaml:3:1 error Flow sequence in block collection must be sufficiently indented and end with a ]',
  },
  'a.toml': { clean: 'a = 1\n', old: '1', new: '', first: 'a.toml:1:5 error Invalid value' },
  'a.py': { clean: 'def f():\n    return 1\n', old: 'f()', new: 'f(', first: 'a.py:1:7 error Missing )' },
  'a.go': {
    clean: 'package main\n\nfunc main() {}\n',
    old: '{}',
    new: '{',
    first: 'a.go:3:13 error Syntax error near "{"',
  },
  'a.rs': {
    clean: 'fn main() {\n    let a = 1;\n}\n',
    old: '1;',
    new: '1',
    first: 'a.rs:2:14 error Missing ;',
  },
  'A.java': {
    clean: 'class A {\n    int a = 1;\n}\n',
    old: '1;',
    new: '1',
    first: 'A.java:2:14 error Missing ;',
  },
  'a.c': { clean: 'int main(void) { return 0; }\n', old: '0;', new: '0', first: 'a.c:1:26 error Missing ;' },
  'a.cpp': {
    clean: 'int main() { int a = 1; return a; }\n',
    old: 'return a;',
    new: 'return a',
    first: 'a.cpp:1:33 error Missing ;',
  },
  'a.css': { clean: 'a { color: red; }\n', old: '}', new: '', first: 'a.css:1:16 error Missing }' },
  'a.html': {
    clean: '<div><p>x</p></div>\n',
    old: '</div>',
    new: '</div',
    first: 'a.html:1:19 error Missing >',
  },
};

describe('diagnostics after an edit', () => {
  for (const [file, { clean, old, new: replacement, first }] of Object.entries(BREAKS)) {
    test(`${file}: a syntax error the edit introduced is reported`, async ({ workspace, runtime }) => {
      addDiagnostics(runtime);
      await workspace.write(file, clean, { readBy: runtime });
      const result = await new StrReplaceFile(runtime).call({ path: file, edit: { old, new: replacement } });
      expect(result.isError).toBe(false);
      const lines = result.message.split('\n');
      expect(lines[2]).toMatch(/^Diagnostics: new problems, this change introduced \d+ problems?\.$/);
      expect(lines[3]).toBe(first);
      expect((result.extras?.diagnostics as DiagnosticsReport).status).toBe('new problems');
    });
  }

  test('the model, the display and extras get the same report', async ({ workspace, runtime }) => {
    addDiagnostics(runtime);
    await workspace.write('src/a.ts', 'export const a = 1;\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'src/a.ts',
      edit: { old: '= 1;', new: '= (1;' },
    });
    const report = [
      'Diagnostics: new problems, this change introduced 1 problem.',
      "src/a.ts:1:20 error ')' expected.",
    ].join('\n');
    expect(result.message).toBe(`${EDITED}\n\n${report}`);
    expect(result.display.at(-1)).toEqual({ type: 'section', source: 'diagnostics', text: report });
    expect(result.extras?.diagnostics).toEqual({
      status: 'new problems',
      checker: 'typescript',
      problems: [{ path: 'src/a.ts', line: 1, column: 20, severity: 'error', message: "')' expected." }],
      kept: 0,
      fixed: 0,
    });
    expect(await workspace.bytes('src/a.ts')).toEqual([...Buffer.from('export const a = (1;\n')]);
  });

  test('a clean edit reports clean', async ({ workspace, runtime }) => {
    addDiagnostics(runtime);
    await workspace.write('a.py', 'x = 1\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({ path: 'a.py', edit: { old: '1', new: '2' } });
    expect(result.message).toBe(`${EDITED}\n\nDiagnostics: clean, this change introduced no problems.`);
    expect(result.extras?.diagnostics).toEqual({
      status: 'clean',
      checker: 'python',
      problems: [],
      kept: 0,
      fixed: 0,
    });
  });

  test('problems already in the file are not reported, even when the edit moves them', async ({
    workspace,
    runtime,
  }) => {
    addDiagnostics(runtime);
    await workspace.write('a.ts', 'const a = ;\nconst b = 1;\nconst c = ;\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'a.ts',
      edit: { old: 'const b = 1;', new: '// b\nconst b = 2;\nconst d = b;' },
    });
    expect(result.message).toBe(
      `${EDITED}\n\nDiagnostics: clean, this change introduced no problems. 2 problems already there before this change remain.`,
    );
  });

  test('a new problem with the same message as an old one is still reported, on its own line', async ({
    workspace,
    runtime,
  }) => {
    addDiagnostics(runtime);
    await workspace.write('a.ts', 'const a = ;\nconst b = 1;\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({ path: 'a.ts', edit: { old: '= 1', new: '= ' } });
    expect(result.message.split('\n').slice(2)).toEqual([
      'Diagnostics: new problems, this change introduced 1 problem. 1 problem already there before this change remains.',
      'a.ts:2:11 error Expression expected.',
    ]);
  });

  test('an edit that fixes a problem says so', async ({ workspace, runtime }) => {
    addDiagnostics(runtime);
    await workspace.write('a.json', '{"a": 1,}\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({ path: 'a.json', edit: { old: '1,', new: '1' } });
    expect(result.message).toBe(
      `${EDITED}\n\nDiagnostics: clean, this change introduced no problems. This change fixed 2 problems.`,
    );
  });

  test('at most 10 problems are shown, with the count of the rest', async ({ runtime }) => {
    addDiagnostics(runtime);
    const content = Array.from({ length: 12 }, (_, index) => `const v${index} = ;`).join('\n');
    const result = await new WriteFile(runtime).call({ path: 'many.ts', content });
    const lines = result.message.split('\n');
    expect(lines[2]).toBe('Diagnostics: new problems, this change introduced 12 problems.');
    expect(lines.slice(3, 13)).toEqual(
      Array.from({ length: 10 }, (_, index) => `many.ts:${index + 1}:12 error Expression expected.`),
    );
    expect(lines.slice(13)).toEqual(['... and 2 more.']);
    expect((result.extras?.diagnostics as DiagnosticsReport).problems).toHaveLength(12);
  });

  test('maxShown changes how many problems the model is shown', async ({ workspace, runtime }) => {
    addDiagnostics(runtime, { maxShown: 1 });
    await workspace.write('a.ts', 'let a = 1;\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'a.ts',
      edit: { old: '1;', new: '(1;\nlet b = ;' },
    });
    expect(result.message.split('\n').slice(2)).toEqual([
      'Diagnostics: new problems, this change introduced 2 problems.',
      "a.ts:1:11 error ')' expected.",
      '... and 1 more.',
    ]);
  });

  test('a new file is checked whole', async ({ runtime }) => {
    addDiagnostics(runtime);
    const result = await new WriteFile(runtime).call({ path: 'deep/new.yaml', content: 'a: [1\n' });
    expect((result.extras?.diagnostics as DiagnosticsReport).status).toBe('new problems');
  });

  test('a new broken file had no problems before it: every problem is new, none already there', async ({
    runtime,
  }) => {
    addDiagnostics(runtime);
    const result = await new WriteFile(runtime).call({ path: 'n2.json', content: '{"a": }' });
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: new problems, this change introduced 1 problem.\nn2.json:1:7 error Value expected',
    );
    expect(result.extras?.diagnostics).toMatchObject({ status: 'new problems', kept: 0, fixed: 0 });
  });

  test('an old content too large to check had no problems known: every problem is new', async ({
    workspace,
    runtime,
  }) => {
    addDiagnostics(runtime, { maxBytes: 10 });
    await workspace.write('a.json', '{"a": [1, 2, 3]}', { readBy: runtime });
    const result = await new WriteFile(runtime).call({ path: 'a.json', content: '{"a": }' });
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: new problems, this change introduced 1 problem.\na.json:1:7 error Value expected',
    );
  });

  test('one problem that stays reads in the singular', async ({ workspace, runtime }) => {
    addDiagnostics(runtime);
    await workspace.write('a.json', '{"a": , "b": 1}\n', { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({ path: 'a.json', edit: { old: '1', new: '2' } });
    expect(result.message).toBe(
      `${EDITED}\n\nDiagnostics: clean, this change introduced no problems. 1 problem already there before this change remains.`,
    );
  });

  test('a file no parser knows gets no checker', async ({ runtime }) => {
    addDiagnostics(runtime);
    const result = await new WriteFile(runtime).call({ path: 'notes.md', content: '# Notes\n' });
    expect(result.message).toBe(
      'File successfully overwritten. Current size: 8 bytes.\n\nDiagnostics: no checker for this kind of file.',
    );
    expect(result.extras?.diagnostics).toEqual({
      status: 'no checker',
      reason: 'language',
      problems: [],
      kept: 0,
      fixed: 0,
    });
  });

  test('a sensitive file is never checked, so its content is never quoted', async ({ workspace }) => {
    const runtime = workspace.runtime({ sensitive: ['secrets.yaml'] });
    addDiagnostics(runtime);
    const result = await new WriteFile(runtime).call({ path: 'secrets.yaml', content: 'token: "abc\n' });
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: no checker, sensitive files are not checked.',
    );
  });

  test('a file over maxBytes is not checked', async ({ runtime }) => {
    addDiagnostics(runtime, { maxBytes: 10 });
    const result = await new WriteFile(runtime).call({ path: 'a.json', content: '{"a": [1, 2, 3]}' });
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: no checker, the file is larger than 10 bytes.',
    );
  });

  test('a parser that runs out of time reports timed out, never clean', async ({ workspace, runtime }) => {
    addDiagnostics(runtime, { parserBudgetMs: 1e-9 });
    const big = 'def f(x):\n    return [x, x + 1, x * 2]\n\n'.repeat(20_000);
    await workspace.write('big.py', big, { readBy: runtime });
    const result = await new StrReplaceFile(runtime).call({
      path: 'big.py',
      edit: { old: 'def f(x):', new: 'def g(x):', replace_all: true },
    });
    expect(result.isError).toBe(false);
    expect(result.message.split('\n\n').at(-1)).toBe(
      'Diagnostics: timed out after 1e-9 ms, so the problems this change introduced are unknown.',
    );
    expect((result.extras?.diagnostics as DiagnosticsReport).status).toBe('timed out');
  });

  test('without diagnostics nothing is added; removing them stops them', async ({ workspace, runtime }) => {
    await workspace.write('a.ts', 'let a = 1;\n', { readBy: runtime });
    const plain = await new StrReplaceFile(runtime).call({ path: 'a.ts', edit: { old: '1;', new: ';' } });
    expect(plain.message).toBe(EDITED);
    expect(plain.extras?.diagnostics).toBeUndefined();
    const remove = addDiagnostics(runtime);
    remove();
    const after = await new StrReplaceFile(runtime).call({ path: 'a.ts', edit: { old: ';', new: '2;' } });
    expect(after.message).toBe(EDITED);
  });

  test('an invalid option is refused when diagnostics are added', async ({ runtime }) => {
    expect(() => addDiagnostics(runtime, { maxShown: 0 })).toThrow(
      'addDiagnostics: maxShown must be a positive number, got 0.',
    );
    expect(runtime.changeObservers.size).toBe(0);
  });
});
