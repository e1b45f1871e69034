import type { FileSystem } from '@kimi-tools/core/fs';

/** Descriptors below this are the standard streams (Grep gives ripgrep `/dev/null` as stdin). */
const FIRST_OWN_DESCRIPTOR = 3;

/**
 * Whether a process on `fs`'s host holds a character or block device open past its standard streams: `true` or
 * `false` as `/proc/{pid}/fd` shows, `null` when it cannot tell (no `/proc`, as on macOS or in memory). ripgrep opens
 * only directories, the regular files it searches and ignore files, so a device it holds is an ignore file it reads:
 * one that never ends (`/dev/zero`, `/dev/urandom`) or a whole disk.
 */
export async function readsDevice(fs: FileSystem, pid: number): Promise<boolean | null> {
  let descriptors: string[];
  try {
    descriptors = (await fs.readdir(`/proc/${pid}/fd`)).map((entry) => entry.name);
  } catch {
    return null;
  }
  const opened = await Promise.all(
    descriptors
      .filter((descriptor) => Number(descriptor) >= FIRST_OWN_DESCRIPTOR)
      // `stat` follows the descriptor's link to what it has open; a descriptor closed meanwhile is no device.
      .map((descriptor) => fs.stat(`/proc/${pid}/fd/${descriptor}`).catch(() => undefined)),
  );
  return opened.some((stats) => stats !== undefined && (stats.isCharacterDevice() || stats.isBlockDevice()));
}
