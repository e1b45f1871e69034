import * as z from 'zod/mini';
import { MAX_PDF_PAGES } from './limits.js';
import { isValidPages, PAGES_PATTERN } from './pdf-pages.js';

/** A whole number of at least `min` pixels. */
const pixels = (min: number, description: string) =>
  z.number().check(z.int(), z.minimum(min)).register(z.globalRegistry, { description });

/** Arguments of ReadMediaFile. */
export const ReadMediaFileParams = z.object({
  path: z.string().register(z.globalRegistry, {
    description:
      'The path of the image, video or PDF file to read: absolute, or relative to the working directory. ' +
      'Files outside the working directory need an absolute path.',
  }),
  region: z
    .optional(
      z.object({
        x: pixels(0, 'Left edge, in pixels of the original image.'),
        y: pixels(0, 'Top edge, in pixels of the original image.'),
        width: pixels(1, 'Width in pixels.'),
        height: pixels(1, 'Height in pixels.'),
      }),
    )
    .register(z.globalRegistry, {
      description:
        'Images only: the rectangle to read, in pixels of the original (upright) image, cropped before the image is ' +
        'fitted to the size limits. Use it to read small text or detail in a large image.',
    }),
  full_resolution: z.optional(z.boolean()).register(z.globalRegistry, {
    description:
      'Images only: send the original pixels, not scaled to the long-edge limit, as long as the image fits the ' +
      'byte budget.',
  }),
  pages: z
    .optional(
      z.string().check(
        z.regex(
          PAGES_PATTERN,
          'pages must be a page ("7"), a range ("3-12") or a page and all after it ("21-")',
        ),
        // Judged only on a value of the right form, which the check above refuses alone.
        z.refine(
          (pages) => !PAGES_PATTERN.test(pages) || isValidPages(pages),
          'pages count from 1, and a range may not end before it starts ("3-12", not "12-3")',
        ),
      ),
    )
    .register(z.globalRegistry, {
      description:
        `PDFs only: the pages to read, 1-based: "7", "3-12" or "21-" (at most ${MAX_PDF_PAGES} per call). ` +
        `Default: the first ${MAX_PDF_PAGES}.`,
    }),
});

/** Validated arguments of ReadMediaFile. */
export type ReadMediaFileParams = z.output<typeof ReadMediaFileParams>;
