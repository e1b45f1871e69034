import * as z from 'zod/mini';

/** Arguments of ListCheckpoints: none. */
export const ListCheckpointsParams = z.object({});

/** Validated arguments of ListCheckpoints. */
export type ListCheckpointsParams = z.output<typeof ListCheckpointsParams>;

/** Arguments of Rewind. */
export const RewindParams = z.object({
  checkpoint: z.string().register(z.globalRegistry, {
    description: 'The id of the checkpoint to go back to, as ListCheckpoints shows it.',
  }),
  paths: z.optional(
    z.array(z.string()).register(z.globalRegistry, {
      description:
        'Only these files or directories (relative to the working directory, or absolute); default: every file.',
    }),
  ),
  user_changes: z.optional(
    z.enum(['keep', 'merge']).register(z.globalRegistry, {
      description:
        "For files the user changed after your last write: 'keep' leaves them as the user made them, 'merge' " +
        'takes back only your changes inside them. Default: nothing is rewound and they are listed.',
    }),
  ),
});

/** Validated arguments of Rewind. */
export type RewindParams = z.output<typeof RewindParams>;
