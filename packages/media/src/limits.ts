/** The largest media file ReadMediaFile hands to a model: 100 MiB. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;
