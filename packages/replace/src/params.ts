import { z } from 'zod';

/** One replacement: the exact text to find and the text to put in its place. */
export const EditSchema = z.object({
  /** What the model reads about `old`. */
  old: z
    .string()
    .describe(
      'The exact text to replace, copied from the file including indentation and line breaks. It must match exactly one place unless replace_all is true.',
    ),
  /** What the model reads about `new`. */
  new: z
    .string()
    .describe(
      'The text to put in its place, inserted literally. Empty deletes the old text (a whole line goes with its line break).',
    ),
  /** What the model reads about `replace_all`. */
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every exact occurrence of old instead of requiring a unique match (e.g. to rename).'),
});

/** Arguments of StrReplaceFile. */
export const StrReplaceFileParams = z.object({
  /** What the model reads about `path`. */
  path: z
    .string()
    .describe(
      'Path of the file to edit. Absolute, or relative to the working directory; a file outside the working directory needs an absolute path.',
    ),
  /** What the model reads about `edit`. */
  edit: z
    .union([EditSchema, z.array(EditSchema).min(1)])
    .describe(
      'One edit, or a list of edits applied in order (each sees the result of the previous ones). If any edit fails, the file is not changed.',
    ),
});

/** Validated arguments of StrReplaceFile. */
export type StrReplaceFileParams = z.infer<typeof StrReplaceFileParams>;

/** One validated edit. */
export type Edit = z.infer<typeof EditSchema>;
