import * as z from 'zod/mini';
import { LINE_OFFSET_TOO_LOW_MESSAGE, LINE_OFFSET_ZERO_MESSAGE } from './errors.js';
import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES, MAX_TAIL_LINES } from './limits.js';

/** Arguments of ReadFile. */
export const ReadFileParams = z.object({
  path: z.string().register(z.globalRegistry, {
    description:
      'The path of the file to read: absolute, or relative to the working directory. ' +
      'Files outside the working directory need an absolute path.',
  }),
  line_offset: z
    ._default(
      z.int().check(
        z.refine((value) => value !== 0, { message: LINE_OFFSET_ZERO_MESSAGE }),
        z.minimum(-MAX_TAIL_LINES, { error: LINE_OFFSET_TOO_LOW_MESSAGE }),
      ),
      1,
    )
    .register(z.globalRegistry, {
      description:
        'The 1-based line number to start reading from (default 1). A negative value reads from the end of the ' +
        `file: -1 is the last line, -100 starts 100 lines before the end (at most -${MAX_TAIL_LINES}). 0 is not allowed.`,
    }),
  n_lines: z._default(z.int().check(z.minimum(1)), MAX_LINES).register(z.globalRegistry, {
    description:
      `The number of lines to read (default ${MAX_LINES}). At most ${MAX_LINES} lines and ${MAX_BYTES} bytes are ` +
      `returned per call, and lines longer than ${MAX_LINE_LENGTH} characters are cut.`,
  }),
});

/** Validated arguments of ReadFile. */
export type ReadFileParams = z.output<typeof ReadFileParams>;
