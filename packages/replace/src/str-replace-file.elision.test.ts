import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { StrReplaceFile } from './str-replace-file.js';

const it = test.extend('tool', ({ runtime }) => new StrReplaceFile(runtime));

const PY =
  'class Shop:\n    def add(self, item):\n        self.items.append(item)\n        self.total += item.price\n\n    def clear(self):\n        self.items = []\n';

describe('elision comments in new', () => {
  it('refuses an edit that puts an elision comment where lines were, writing nothing', async ({
    workspace,
    runtime,
    tool,
    approval,
  }) => {
    const file = await workspace.write('shop.py', PY, { readBy: runtime });
    const result = await tool.call({
      path: file,
      edit: {
        old: '    def add(self, item):\n        self.items.append(item)\n        self.total += item.price',
        new: '    def add(self, item):\n        # ... existing code ...\n        self.count += 1',
      },
    });
    expect(result.brief).toBe('Elided content');
    expect(result.message).toBe(
      'The edits replace existing lines with the comment `# ... existing code ...`, which reads as if code was left out; writing it would delete that code. No changes were made. Put the real lines in new, or narrow old to the lines that change.',
    );
    expect(await workspace.read(file)).toBe(PY);
    expect(approval.requests).toHaveLength(0);
  });

  // The comment is a line the model wrote: echoed raw, an ESC in it reached the model as it was, and a comment of a
  // megabyte (its `//` repeated) came back whole.
  it('quotes the comment as a line of a file is shown, cut to its two ends past 200 characters', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const file = await workspace.write('shop.py', PY, { readBy: runtime });
    const refusal = async (comment: string) =>
      (
        await tool.call({
          path: file,
          edit: { old: '        self.items.append(item)', new: `        ${comment}` },
        })
      ).message;
    const refused = (shown: string) =>
      `The edits replace existing lines with the comment \`${shown}\`, which reads as if code was left out; writing it would delete that code. No changes were made. Put the real lines in new, or narrow old to the lines that change.`;
    expect(await refusal('# ... existing code \u001b[2K ...')).toBe(
      refused('# ... existing code \u241b[2K ...'),
    );
    expect(await refusal('# ... existing code \u202e ...')).toBe(refused('# ... existing code \\u202e ...'));
    expect(await refusal(`${'#'.repeat(1024 * 1024)} ... existing code ...`)).toBe(
      refused(`${'#'.repeat(100)}[...1048398 characters cut...]${'#'.repeat(78)} ... existing code ...`),
    );
    expect(await workspace.read(file)).toBe(PY);
  });

  it('edits a file that already had an elision comment normally', async ({ workspace, runtime, tool }) => {
    const source = 'function a() {\n  // ... rest of the code unchanged ...\n  return 1;\n}\n';
    const file = await workspace.write('a.js', source, { readBy: runtime });
    const result = await tool.call({ path: file, edit: { old: '  return 1;', new: '  return 2;' } });
    expect(result.isError).toBe(false);
    expect(await workspace.read(file)).toBe(source.replace('return 1', 'return 2'));
    const moved = await tool.call({
      path: file,
      edit: {
        old: '  // ... rest of the code unchanged ...\n  return 2;',
        new: '  return 3;\n  // ... rest of the code unchanged ...',
      },
    });
    expect(moved.isError).toBe(false);
  });
});
