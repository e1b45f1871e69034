import * as z from 'zod/mini';

/** Arguments of WriteFile. */
export const WriteFileParams = z.object({
  path: z.string().register(z.globalRegistry, {
    description:
      'The file to write: absolute, or relative to the working directory. ' +
      'Files outside the working directory need an absolute path.',
  }),
  content: z.string().register(z.globalRegistry, { description: 'The text to write (use \\n line breaks).' }),
  mode: z._default(z.enum(['overwrite', 'append']), 'overwrite').register(z.globalRegistry, {
    description:
      '`overwrite` replaces the whole file with `content` (creating it if needed); ' +
      '`append` adds `content` at the end of the file.',
  }),
});

/** Validated arguments of WriteFile. */
export type WriteFileParams = z.output<typeof WriteFileParams>;

/** How WriteFile treats an existing file. */
export type WriteMode = WriteFileParams['mode'];
