import * as z from 'zod/mini';

/** Arguments of NotebookEdit. */
export const NotebookEditParams = z.object({
  notebook_path: z.string().register(z.globalRegistry, {
    description:
      'The Jupyter notebook (.ipynb) to edit: absolute, or relative to the working directory. ' +
      'A notebook outside the working directory needs an absolute path.',
  }),
  cell_id: z.optional(z.string()).register(z.globalRegistry, {
    description:
      'The cell to replace or delete, or to insert after, as ReadFile shows it in the cell header: ' +
      'its id, or cell-N (counting from 0) for a cell without a usable id. Insert without it puts the cell at the top.',
  }),
  new_source: z.optional(z.string()).register(z.globalRegistry, {
    description: 'The new source of the cell, as plain text (not JSON). Required except for delete.',
  }),
  cell_type: z.optional(z.enum(['code', 'markdown'])).register(z.globalRegistry, {
    description:
      'The type of the cell. Required for insert; for replace it converts the cell (default: keep its type).',
  }),
  edit_mode: z._default(z.enum(['replace', 'insert', 'delete']), 'replace').register(z.globalRegistry, {
    description: 'replace (default) the cell source, insert a new cell, or delete the cell.',
  }),
});

/** Validated arguments of NotebookEdit. */
export type NotebookEditParams = z.output<typeof NotebookEditParams>;
