/** The longest name Linux takes, in UTF-8 bytes (NAME_MAX). */
const MAX_NAME_BYTES = 255;
/** A path of this many UTF-8 bytes is too long for Linux (PATH_MAX, which counts the final NUL). */
const MAX_PATH_BYTES = 4096;

/** Whether Linux refuses `path` with ENAMETOOLONG: a name over 255 bytes, or 4096 bytes in all. */
export function nameTooLong(path: string): boolean {
  return pathTooLong(path) || path.split('/').some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
}

/**
 * Whether `path` is too long for Linux as a whole. Such a path is refused before it is sent: the host would refuse it
 * anyway, and one over the SFTP message limit (256 KiB for OpenSSH) ends the SFTP server, and every call in flight.
 */
export function pathTooLong(path: string): boolean {
  return path.length >= MAX_PATH_BYTES / 3 && Buffer.byteLength(path) >= MAX_PATH_BYTES;
}
