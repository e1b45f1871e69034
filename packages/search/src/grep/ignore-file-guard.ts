import type { DirEntry, FileSystem, FileTypeTests } from '@kimi-tools/core/fs';
import { pathApiFor } from '@kimi-tools/core/toolkit';
import { VCS_DIRECTORIES } from '../limits.js';
import { isEndlessDevice, readsDevice } from './device-read.js';
import { waitsOnFifoOpen } from './fifo-wait.js';

/** The ignore files ripgrep opens in each directory it enters and in the directories above the search. */
const RIPGREP_IGNORE_NAMES: ReadonlySet<string> = new Set(['.gitignore', '.ignore', '.rgignore']);

const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(VCS_DIRECTORIES);

/** A search still running after this long is checked for an ignore file holding ripgrep up, and again as often. */
const LOOK_AFTER_MS = 1000;

/** Directory entries one look reads at most, so a look over a huge tree stays bounded. */
const MAX_ENTRIES_PER_LOOK = 200_000;

/** Stops the checks started by {@link guardIgnoreFiles}. */
export type StopGuarding = () => void;

/** What one look over the ignore files found. */
interface Look {
  /** FIFOs opened and closed, so that ripgrep's open of them returned. */
  released: number;
  /** Devices: ripgrep would read them without end (`/dev/zero`) or read a whole disk. */
  devices: number;
}

/**
 * ripgrep opens and reads every ignore file it meets, whatever it is, and has no option to skip one: a FIFO named
 * `.gitignore` holds its open until a writer comes, a link to `/dev/zero` makes it read (and keep, as one endless
 * line) until Grep's timeout. Finding such files first would cost every search a second walk of the tree; instead,
 * once a search has run for a second, and then every second, ripgrep is checked in `/proc` (of the host `fs` runs it
 * on). When it is busy, nothing more is done (a long search of a big tree must not pay for a walk of it). When it
 * holds a device open, `onUnreadable` is called: the search must be made without ripgrep. When it waits to open a
 * FIFO, or `/proc` cannot tell, the tree (and the directories above it) is looked over: each FIFO ignore file is
 * opened for reading and writing and closed at once (an open for writing is what ripgrep's open waits for, so it
 * returns and ripgrep reads an empty file; nothing is written, and such an open never waits), and a device ignore file,
 * or a FIFO ripgrep waits on that is none of these (git's exclude files), calls `onUnreadable`. The checks stop then.
 * `ripgrepPid` gives ripgrep's process id once it is known.
 */
export function guardIgnoreFiles(
  fs: FileSystem,
  root: string,
  ripgrepPid: () => number | undefined,
  onUnreadable: () => void,
): StopGuarding {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      void findsUnreadable(fs, root, ripgrepPid(), () => stopped).then((unreadable) => {
        if (stopped) return;
        if (!unreadable) {
          schedule();
          return;
        }
        stopped = true;
        onUnreadable();
      });
    }, LOOK_AFTER_MS);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Whether ripgrep is held up by an ignore file it cannot be made to skip (releasing the FIFOs it can). */
async function findsUnreadable(
  fs: FileSystem,
  root: string,
  pid: number | undefined,
  isStopped: () => boolean,
): Promise<boolean> {
  // Without a process id (a backend that cannot tell it) the look is made all the same: "where that cannot be told".
  const [waiting, device] =
    pid === undefined ? [null, null] : await Promise.all([waitsOnFifoOpen(fs, pid), readsDevice(fs, pid)]);
  if (device === true) return true;
  if (waiting === false || isStopped()) return false;
  const look = await lookOnce(fs, root, isStopped);
  return look.devices > 0 || (waiting === true && look.released === 0);
}

async function lookOnce(fs: FileSystem, root: string, isStopped: () => boolean): Promise<Look> {
  const look: Look = { released: 0, devices: 0 };
  const path = pathApiFor(fs.platform);
  const candidates: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    for (const name of RIPGREP_IGNORE_NAMES) candidates.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  await Promise.all(candidates.map((candidate) => judge(fs, candidate, undefined, look)));

  const queue = [root];
  let budget = MAX_ENTRIES_PER_LOOK;
  while (queue.length > 0 && budget > 0 && !isStopped()) {
    const dir = queue.pop() as string;
    let entries: DirEntry[];
    try {
      entries = await fs.readdir(dir);
    } catch {
      continue;
    }
    budget -= entries.length;
    const judged: Array<Promise<void>> = [];
    for (const entry of entries) {
      const entryPath = path.join(dir, entry.name);
      if (RIPGREP_IGNORE_NAMES.has(entry.name)) judged.push(judge(fs, entryPath, entry, look));
      else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) queue.push(entryPath);
    }
    await Promise.all(judged);
  }
  return look;
}

/**
 * Counts `filePath` in `look` when it is a FIFO or a device (or a symlink to one); a FIFO is opened and closed for
 * reading and writing first: never waits, never writes (`update` on a FIFO returns at once, on Linux). A socket is
 * left alone: ripgrep's open of it fails at once and ripgrep goes on without it.
 */
async function judge(
  fs: FileSystem,
  filePath: string,
  entry: DirEntry | undefined,
  look: Look,
): Promise<void> {
  try {
    const type: FileTypeTests =
      entry !== undefined && !entry.isSymbolicLink() ? entry : await fs.stat(filePath);
    if ((type.isCharacterDevice() || type.isBlockDevice()) && (await isEndlessDevice(fs, filePath))) {
      look.devices += 1;
    }
    if (!type.isFIFO()) return;
    const handle = await fs.open(filePath, 'update');
    await handle.close();
    look.released += 1;
  } catch {
    // Missing, or not a FIFO any more: nothing to release.
  }
}
