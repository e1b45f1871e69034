import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planNotebookEdit } from './edit-notebook.js';
import { parseNotebook } from './parse-notebook.js';
import type { Notebook } from './notebook-types.js';
import { appliedReplacements } from '../text/__fixtures__/applied-replacements.js';

// For any cell ids, valid or not, repeated or of the shape of positions: the names cells are shown by are distinct
// nbformat ids, each leads back to its own cell, and an insert or delete names its cell, and says whether it renamed
// another, as the notebook read again shows.

const NBFORMAT_ID = /^[A-Za-z0-9_-]{1,64}$/;

const cellId = fc.oneof(
  fc.constant(undefined),
  fc.constant(5),
  fc.constantFrom('x', 'y', 'a-b_C9', 'a'.repeat(64), 'a'.repeat(65)),
  fc.nat({ max: 5 }).map((n) => `cell-${n}`),
  fc.string({ unit: fc.constantFrom('a', '-', '_', '\n', ',', ' ', 'é', '\u001b'), maxLength: 4 }),
);

function notebookOf(ids: readonly unknown[], minor = 5): Notebook {
  const cells = ids.map((id) => ({
    cell_type: 'markdown',
    ...(id === undefined ? {} : { id }),
    metadata: {},
    source: [],
  }));
  const parsed = parseNotebook(
    JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: minor }, null, 1),
  );
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.notebook;
}

describe('notebook cell names, for any ids', () => {
  it("are distinct nbformat ids: the cell's own valid id, else its position", () => {
    fc.assert(
      fc.property(fc.array(cellId, { maxLength: 8 }), (ids) => {
        const names = notebookOf(ids).cells.map((cell) => cell.identifier);
        expect(new Set(names).size).toBe(names.length);
        names.forEach((name, index) => {
          expect(name).toMatch(NBFORMAT_ID);
          expect([ids[index], `cell-${index}`]).toContain(name);
          // An allowed id is given up only when an earlier cell has it or a cell is named by that position.
          const id = ids[index];
          if (typeof id === 'string' && NBFORMAT_ID.test(id) && name !== id) {
            expect(
              ids.indexOf(id) < index || names.some((other, m) => other === id && id === `cell-${m}`),
            ).toBe(true);
          }
        });
      }),
    );
  });

  it('after an insert or delete, name the cell and tell whether another was renamed as a new read shows', () => {
    fc.assert(
      fc.property(
        fc.array(cellId, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(4, 5),
        fc.nat(),
        fc.constantFrom('insert' as const, 'delete' as const),
        (ids, minor, at, mode) => {
          const notebook = notebookOf(ids, minor);
          const target = notebook.cells[at % notebook.cells.length]!;
          const plan = planNotebookEdit(notebook, {
            mode,
            cellId: target.identifier,
            ...(mode === 'insert' ? { source: 'new', cellType: 'code' as const } : {}),
          });
          if (!plan.ok) throw new Error(plan.reason);
          const again = parseNotebook(appliedReplacements(notebook.text, plan.replacements));
          if (!again.ok) throw new Error(again.reason);
          const after = again.notebook.cells.map((cell) => cell.identifier);
          const others = [...after];
          if (mode === 'insert') {
            expect(after[plan.cell.index]).toBe(plan.cell.identifier);
            expect(plan.cell.identifier).toMatch(NBFORMAT_ID);
            others.splice(plan.cell.index, 1);
          }
          const before = notebook.cells.filter((cell) => mode === 'insert' || cell !== target);
          const renamed = before.some((cell, index) => cell.identifier !== others[index]);
          expect(plan.renamesOthers).toBe(renamed);
        },
      ),
    );
  });
});
