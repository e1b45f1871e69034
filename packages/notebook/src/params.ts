import { z } from 'zod';

/** Arguments of NotebookEdit. */
export const NotebookEditParams = z.object({
  path: z
    .string()
    .describe(
      'The file to describe: absolute, or relative to the working directory. ' +
        'A file outside the working directory needs an absolute path.',
    ),
  text_details: z
    .boolean()
    .default(true)
    .describe(
      'Whether to decode a text file to report its encoding, byte order mark, line endings and number of lines ' +
        '(default true). Set it to false to get only the kind and size of a large file.',
    ),
});

/** Validated arguments of NotebookEdit. */
export type NotebookEditParams = z.output<typeof NotebookEditParams>;
