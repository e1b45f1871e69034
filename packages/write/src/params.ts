import * as z from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini (half the start-up of classic zod) loads no locale; the messages a model reads are zod's English ones,
// set as classic zod sets them: unless the process already chose a locale.
if (!z.config().localeError) z.config(en());

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
