import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ApplyPatch } from './index.js';

const it = test.extend('tool', ({ runtime }) => new ApplyPatch(runtime));

// A model copies the description's example: its `@@` line must read as the line it names in the file the example
// edits. It read `@@ function main()` above unindented context, while TypeScript writes `function main() {` with its
// body indented, so the copied form failed with `Its line 'function main()' was not found`.
describe('ApplyPatch: the description', () => {
  it('holds an envelope that applies to the TypeScript files it names, as they are written', async ({
    workspace,
    runtime,
    tool,
  }) => {
    const example = /```\n(\*\*\* Begin Patch\n[\s\S]*?\*\*\* End Patch)\n```/.exec(tool.description)?.[1];
    expect(example).toBeDefined();
    await workspace.write(
      'src/app.ts',
      'function main() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n',
      {
        readBy: runtime,
      },
    );
    await workspace.write('src/old.ts', 'export {};\n', { readBy: runtime });
    const result = await tool.call({ patch: example! });
    expect(result).toMatchObject({
      isError: false,
      message: 'Success. Updated the following files:\nA src/new.ts\nM src/app.ts\nD src/old.ts',
    });
    expect(await workspace.read('src/app.ts')).toBe(
      'function main() {\n  const a = 1;\n  const b = 3;\n  return a + b;\n}\n',
    );
  });
});
