import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { WriteFile } from './write-file.js';

const it = test.extend('tool', ({ runtime }) => new WriteFile(runtime));

const program =
  Array.from({ length: 300 }, (_, index) => `export const value${index} = ${index};`).join('\n') + '\n';

describe('lazy overwrites', () => {
  it('refuses 2 lines and an elision comment for a 300-line file, writing nothing and asking nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('values.ts', program, { readBy: runtime });
    const result = await tool.call({
      path: 'values.ts',
      content: 'export const value0 = 100;\n// ... rest of the file unchanged ...\n',
    });
    expect(result.isError).toBe(true);
    expect(result.brief).toBe('Elided content');
    expect(result.message).toBe(
      'The new content of `values.ts` replaces existing lines with the comment `// ... rest of the file unchanged ...`, which reads as if code was left out; writing it would delete that code. Nothing was written. Write the complete content, or change only the lines that change with StrReplaceFile.',
    );
    expect(await workspace.read(file)).toBe(program);
    expect(approval.requests).toHaveLength(0);
  });

  // The comment is a line the model wrote: echoed raw, an ESC in it reached the model as it was, and a comment of a
  // megabyte (its `//` repeated) came back whole.
  it('quotes the comment as a line of a file is shown, cut to its two ends past 200 characters', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('values.ts', program, { readBy: runtime });
    const refusal = async (comment: string) =>
      (await tool.call({ path: 'values.ts', content: `export const value0 = 100;\n${comment}\n` })).message;
    const refused = (shown: string) =>
      `The new content of \`values.ts\` replaces existing lines with the comment \`${shown}\`, which reads as if code was left out; writing it would delete that code. Nothing was written. Write the complete content, or change only the lines that change with StrReplaceFile.`;
    expect(await refusal('// ... rest unchanged \u001b[2K ...')).toBe(
      refused('// ... rest unchanged \u241b[2K ...'),
    );
    expect(await refusal('// ... rest unchanged \u202e ...')).toBe(
      refused('// ... rest unchanged \\u202e ...'),
    );
    expect(await refusal(`${'/'.repeat(1024 * 1024)} ... rest unchanged ...`)).toBe(
      refused(`${'/'.repeat(100)}[...1048399 characters cut...]${'/'.repeat(77)} ... rest unchanged ...`),
    );
    expect(await workspace.read(file)).toBe(program);
  });

  it('refuses the lazy overwrite docs/differences.md names, `// ... rest unchanged ...`', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('values.ts', program, { readBy: runtime });
    const result = await tool.call({
      path: 'values.ts',
      content: 'export const value0 = 100;\n// ... rest unchanged ...\n',
    });
    expect(result.brief).toBe('Elided content');
    expect(await workspace.read(file)).toBe(program);
  });

  it('writes a file that already had the comment, and an append that adds one', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const withComment = 'def main():\n    run()\n    # ... existing code ...\n    stop()\n';
    const file = await workspace.write('main.py', withComment, { readBy: runtime });
    const next = 'def main():\n    start()\n    # ... existing code ...\n';
    expect((await tool.call({ path: 'main.py', content: next })).isError).toBe(false);
    expect(await workspace.read(file)).toBe(next);
    const appended = await tool.call({
      path: 'main.py',
      content: '# rest of the code unchanged\n',
      mode: 'append',
    });
    expect(appended.isError).toBe(false);
  });

  it('writes a new elision-like comment when no line of the file goes', async ({
    workspace,
    runtime,
    tool,
  }) => {
    await workspace.write('a.js', 'a();\n', { readBy: runtime });
    const result = await tool.call({ path: 'a.js', content: 'a();\n// other handlers are unchanged\n' });
    expect(result.isError).toBe(false);
  });
});
