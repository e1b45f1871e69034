import * as z from 'zod/mini';

/** One replacement: the exact text to find and the text to put in its place. */
export const EditSchema = z.object({
  /** The exact text to find (must match one place unless `replace_all`). */
  old: z.string().register(z.globalRegistry, {
    description:
      'The exact text to replace, copied from the file including indentation and line breaks. It must match exactly one place unless replace_all is true.',
  }),
  /** The replacement, inserted literally. */
  new: z.string().register(z.globalRegistry, {
    description:
      'The text to put in its place, inserted literally. Empty deletes the old text (a whole line goes with its line break).',
  }),
  /** Replace every exact occurrence instead of requiring a unique match. */
  replace_all: z._default(z.boolean(), false).register(z.globalRegistry, {
    description:
      'Replace every exact occurrence of old instead of requiring a unique match (e.g. to rename).',
  }),
});

/** Arguments of StrReplaceFile. */
export const StrReplaceFileParams = z.object({
  /** The file to edit, absolute or relative to the work dir. */
  path: z.string().register(z.globalRegistry, {
    description:
      'Path of the file to edit. Absolute, or relative to the working directory; a file outside the working directory needs an absolute path.',
  }),
  /** One edit or a non-empty, ordered list of edits. */
  edit: z.union([EditSchema, z.array(EditSchema).check(z.minLength(1))]).register(z.globalRegistry, {
    description:
      'One edit, or a list of edits applied in order (each sees the result of the previous ones). If any edit fails, the file is not changed.',
  }),
});

/** Validated arguments of StrReplaceFile. */
export type StrReplaceFileParams = z.infer<typeof StrReplaceFileParams>;

/** One validated edit. */
export type Edit = z.infer<typeof EditSchema>;
