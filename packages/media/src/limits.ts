/** The largest media file ReadMediaFile hands to a model: 100 MiB. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

/** Default longest edge of an image sent to the model, in pixels (`maxImageEdge`). */
export const DEFAULT_MAX_IMAGE_EDGE = 2000;

/**
 * Default image budget (`maxImageBytes`): 4 MiB of base64, the form the model receives, which is 3 MiB of image
 * bytes. It stays under the strictest provider limit (5 MB of base64 per image) and leaves a media result far below
 * the 8 MiB a standard MCP client takes in one message.
 */
export const DEFAULT_MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** The smallest `maxImageBytes` accepted: below it even a thumbnail may not fit. */
export const MIN_MAX_IMAGE_BYTES = 16 * 1024;

/** The smallest `maxImageEdge` accepted, in pixels. */
export const MIN_MAX_IMAGE_EDGE = 64;

/** Most PDF pages one call reads. */
export const MAX_PDF_PAGES = 20;

/** Most characters of PDF text one call returns; the page that crosses it is the last one (and is cut). */
export const MAX_PDF_TEXT_CHARS = 100_000;

/** Longest edge, in pixels, of a PDF page without a text layer rendered as an image. */
export const PDF_PAGE_IMAGE_EDGE = 1600;
