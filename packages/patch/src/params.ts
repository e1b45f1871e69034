import * as z from 'zod/mini';

/** Arguments of ApplyPatch. */
export const ApplyPatchParams = z.object({
  patch: z.string().register(z.globalRegistry, {
    description:
      "The patch: a '*** Begin Patch' envelope, or a unified diff as `git diff` prints it. " +
      'Every file it names is changed, or none is.',
  }),
});

/** Validated arguments of ApplyPatch. */
export type ApplyPatchParams = z.output<typeof ApplyPatchParams>;
