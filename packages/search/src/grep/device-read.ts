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
  const endless = await Promise.all(
    descriptors
      .filter((descriptor) => Number(descriptor) >= FIRST_OWN_DESCRIPTOR)
      .map((descriptor) => isEndlessDevice(fs, `/proc/${pid}/fd/${descriptor}`)),
  );
  return endless.includes(true);
}

/** The one device an ignore file may well be, on purpose (`.gitignore -> /dev/null`): it ends at once. */
const EMPTY_DEVICE = '/dev/null';

/**
 * Whether `filePath` is (or leads to) a character or block device other than `/dev/null`, which a reader would read
 * without end or for a whole disk. `stat` follows a descriptor's link to what it has open; a path gone meanwhile is
 * none.
 */
export async function isEndlessDevice(fs: FileSystem, filePath: string): Promise<boolean> {
  const stats = await fs.stat(filePath).catch(() => undefined);
  if (stats === undefined || !(stats.isCharacterDevice() || stats.isBlockDevice())) return false;
  return (await fs.realpath(filePath).catch(() => undefined)) !== EMPTY_DEVICE;
}
