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
