import type { DirEntry, FileSystem } from '@kimi-tools/core/fs';
import { pathApiFor } from '@kimi-tools/core/toolkit';
import { VCS_DIRECTORIES } from '../limits.js';
import { waitsOnFifoOpen } from './fifo-wait.js';

/** The ignore files ripgrep opens in each directory it enters and in the directories above the search. */
const RIPGREP_IGNORE_NAMES: ReadonlySet<string> = new Set(['.gitignore', '.ignore', '.rgignore']);

const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(VCS_DIRECTORIES);

/** A search still running after this long is checked for a wait on a FIFO ignore file, and again as often. */
const LOOK_AFTER_MS = 1000;

/** Directory entries one look reads at most, so a look over a huge tree stays bounded. */
const MAX_ENTRIES_PER_LOOK = 200_000;

/** Stops the looks started by {@link releaseIgnoreFifos}. */
export type StopReleasing = () => void;

/**
 * ripgrep opens every ignore file it meets with a blocking open: a FIFO named `.gitignore` holds it until a writer
 * comes, so the search would end only at Grep's timeout. ripgrep has no option to skip such files, and finding them
 * first would cost every search a second walk of the tree; instead, once a search has run for a second, and then
 * every second, ripgrep is checked: where `/proc` (of the host `fs` runs ripgrep on) shows it busy, nothing more is
 * done (a long search of a big tree must not pay for a walk of it); where it shows ripgrep waiting to open a FIFO, or
 * cannot tell, the tree (and the directories above it) is looked over for FIFO ignore files, and each is opened for
 * reading and writing and closed at once: an open for writing is what ripgrep's open waits for, so it returns and
 * ripgrep reads an empty file. Nothing is written, and a FIFO opened for reading and writing never makes its opener
 * wait. `ripgrepPid` gives ripgrep's process id once it is known.
 */
export function releaseIgnoreFifos(
  fs: FileSystem,
  root: string,
  ripgrepPid: () => number | undefined,
): StopReleasing {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      void lookIfWaiting(fs, root, ripgrepPid(), () => stopped).then(() => {
        if (!stopped) schedule();
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

async function lookIfWaiting(
  fs: FileSystem,
  root: string,
  pid: number | undefined,
  isStopped: () => boolean,
): Promise<void> {
  // Without a process id (a backend that cannot tell it) the look is made all the same: "where that cannot be told".
  if ((pid !== undefined && (await waitsOnFifoOpen(fs, pid)) === false) || isStopped()) return;
  await lookOnce(fs, root, isStopped);
}

async function lookOnce(fs: FileSystem, root: string, isStopped: () => boolean): Promise<void> {
  const path = pathApiFor(fs.platform);
  const candidates: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    for (const name of RIPGREP_IGNORE_NAMES) candidates.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  await Promise.all(candidates.map((candidate) => releaseIfFifo(fs, candidate, undefined)));

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
    const releases: Array<Promise<void>> = [];
    for (const entry of entries) {
      const entryPath = path.join(dir, entry.name);
      if (RIPGREP_IGNORE_NAMES.has(entry.name)) releases.push(releaseIfFifo(fs, entryPath, entry));
      else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) queue.push(entryPath);
    }
    await Promise.all(releases);
  }
}

/**
 * Opens and closes `filePath` for reading and writing when it is a FIFO (or a symlink to one): never waits, never
 * writes. `update` opens for reading and writing, which on a FIFO returns at once (Linux).
 */
async function releaseIfFifo(fs: FileSystem, filePath: string, entry: DirEntry | undefined): Promise<void> {
  try {
    const isFifo =
      entry !== undefined && !entry.isSymbolicLink() ? entry.isFIFO() : (await fs.stat(filePath)).isFIFO();
    if (!isFifo) return;
    const handle = await fs.open(filePath, 'update');
    await handle.close();
  } catch {
    // Missing, or not a FIFO any more: nothing to release.
  }
}
