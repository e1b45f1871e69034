/** Default of the `maxBytes` option: the largest patch text taken (1 MiB). */
export const DEFAULT_MAX_PATCH_BYTES = 1 << 20;

/** Default of the `maxFiles` option: the most file sections in one patch. */
export const DEFAULT_MAX_FILES = 200;

/** Default of the `maxChunks` option: the most chunks in one patch, all files together. */
export const DEFAULT_MAX_CHUNKS = 5000;
