import { z } from 'zod';

const ContentPartShape = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('image_url'), url: z.string() }),
  z.strictObject({ type: z.literal('video_url'), url: z.string() }),
]);

const DisplayBlockShape = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('brief'), text: z.string().min(1) }),
  z.strictObject({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.string(),
    newText: z.string(),
    oldStart: z.number().int().min(0),
    newStart: z.number().int().min(0),
    isSummary: z.boolean(),
  }),
]);

/** docs/results.md: the exact shape of a ToolReturnValue, with no extra fields. */
export const ToolReturnValueShape = z
  .strictObject({
    isError: z.boolean(),
    output: z.union([z.string(), z.array(ContentPartShape)]),
    message: z.string(),
    brief: z.string(),
    display: z.array(DisplayBlockShape),
    extras: z.record(z.string(), z.unknown()).optional(),
  })
  .refine(
    (result) => {
      // The brief block is present exactly when the brief is non-empty, first, and only once.
      const briefs = result.display.filter((block) => block.type === 'brief');
      if (result.brief === '') return briefs.length === 0;
      const first = result.display[0];
      return briefs.length === 1 && first?.type === 'brief' && first.text === result.brief;
    },
    { message: 'the brief block must be first, once, and only when the brief is non-empty' },
  )
  .refine((result) => !result.isError || (result.message !== '' && result.brief !== ''), {
    message: 'an error needs a message and a brief',
  });

/** Why `value` is not a well-formed ToolReturnValue, or `undefined` when it is. */
export function toolResultProblem(value: unknown): string | undefined {
  const parsed = ToolReturnValueShape.safeParse(value);
  return parsed.success ? undefined : z.prettifyError(parsed.error);
}
