/** Default of the `maxBytes` option: the largest text file decoded for its text details (10 MiB). */
export const DEFAULT_MAX_BYTES = 10 << 20;
