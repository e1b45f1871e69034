/** Files larger than this many bytes are not edited (1 GiB). */
export const MAX_EDIT_FILE_BYTES = 1024 * 1024 * 1024;
