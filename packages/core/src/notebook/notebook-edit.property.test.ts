import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { planNotebookEdit } from './edit-notebook.js';
import { parseNotebook } from './parse-notebook.js';
import type { JsonObject } from './notebook-types.js';
import { appliedReplacements } from '../text/__fixtures__/applied-replacements.js';

// For any source text, in any of the layouts writers use, a replaced or inserted cell reads back with exactly that
// source, and every other cell keeps its characters; the scanner finds the cells where jsonc-parser does.

const layout = fc.record({
  indent: fc.constantFrom(' ', '  ', '    ', '\t'),
  minor: fc.constantFrom(0, 4, 5),
  asString: fc.boolean(),
});

const sourceText = fc.string({
  unit: fc.constantFrom('a', 'é', '\n', '"', '\\', '\u001b', '😀', ' ', '}', ']'),
});

describe('planNotebookEdit, for any source', () => {
  it('replaces and inserts cells that read back with that source, other cells unchanged', () => {
    fc.assert(
      fc.property(
        layout,
        fc.array(sourceText, { minLength: 1, maxLength: 4 }),
        sourceText,
        (style, sources, next) => {
          const cells = sources.map((source, index) => ({
            cell_type: index % 2 ? 'code' : 'markdown',
            ...(style.minor >= 5 ? { id: `id${index}` } : {}),
            metadata: {},
            source: style.asString ? source : source.split(/(?<=\n)/),
            ...(index % 2 ? { execution_count: 1, outputs: [] } : {}),
          }));
          const text = JSON.stringify(
            { cells, nbformat: 4, nbformat_minor: style.minor },
            null,
            style.indent,
          );
          const parsed = parseNotebook(text);
          if (!parsed.ok) throw new Error(parsed.reason);
          const oracle = findNodeAtLocation(parseTree(text)!, ['cells'])!.children!;
          expect(parsed.notebook.cells.map((cell) => cell.range)).toEqual(
            oracle.map((node) => ({ start: node.offset, end: node.offset + node.length })),
          );

          const target = parsed.notebook.cells[cells.length - 1]!;
          for (const edit of [
            { mode: 'replace', cellId: target.identifier, source: next },
            { mode: 'insert', cellId: target.identifier, source: next, cellType: 'code' },
          ] as const) {
            const plan = planNotebookEdit(parsed.notebook, edit);
            if (!plan.ok) throw new Error(plan.reason);
            const after = JSON.parse(appliedReplacements(text, plan.replacements)) as { cells: JsonObject[] };
            const at = edit.mode === 'replace' ? cells.length - 1 : cells.length;
            const source = after.cells[at]!.source;
            expect(Array.isArray(source) ? source.join('') : source).toBe(next);
            expect(after.cells.slice(0, cells.length - 1)).toEqual(cells.slice(0, -1));
            expect(text.slice(0, target.range!.start)).toBe(
              appliedReplacements(text, plan.replacements).slice(0, target.range!.start),
            );
          }
        },
      ),
    );
  });
});
