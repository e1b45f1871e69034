import { describe, expect, test } from 'vitest';
import { addToolToDocsIndex } from './docs-index.js';
import { deriveNames } from './names.js';

const INDEX = `# Contract

## Tools

| page                     | package            |
| ------------------------ | ------------------ |
| [ReadFile](read-file.md) | \`@kimi-tools/read\` |

## Also
`;

describe('addToolToDocsIndex', () => {
  test('adds a row, padded to the columns, at the end of the table under ## Tools', () => {
    const names = deriveNames({ name: 'notebook', toolName: 'NotebookEdit' });
    expect(addToolToDocsIndex(INDEX, names).split('\n').slice(4, 9)).toEqual([
      '| page                     | package            |',
      '| ------------------------ | ------------------ |',
      '| [ReadFile](read-file.md) | `@kimi-tools/read` |',
      '| [NotebookEdit](notebook-edit.md) | `@kimi-tools/notebook` |',
      '',
    ]);
  });

  test('throws when the index has no tools table', () => {
    expect(() => addToolToDocsIndex('# Contract\n', deriveNames({ name: 'x' }))).toThrow(
      'docs/README.md has no table under "## Tools".',
    );
  });
});
