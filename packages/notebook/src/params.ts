import * as z from 'zod';

/** Arguments of NotebookEdit. */
export const NotebookEditParams = z.object({
  notebook_path: z
    .string()
    .describe(
      'The Jupyter notebook (.ipynb) to edit: absolute, or relative to the working directory. ' +
        'A notebook outside the working directory needs an absolute path.',
    ),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The cell to replace or delete, or to insert after, as ReadFile shows it in the cell header: ' +
        'its id, or cell-N (counting from 0) in a notebook without ids. Insert without it puts the cell at the top.',
    ),
  new_source: z
    .string()
    .optional()
    .describe('The new source of the cell, as plain text (not JSON). Required except for delete.'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe(
      'The type of the cell. Required for insert; for replace it converts the cell (default: keep its type).',
    ),
  edit_mode: z
    .enum(['replace', 'insert', 'delete'])
    .default('replace')
    .describe('replace (default) the cell source, insert a new cell, or delete the cell.'),
});

/** Validated arguments of NotebookEdit. */
export type NotebookEditParams = z.output<typeof NotebookEditParams>;
