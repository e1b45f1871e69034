import { constants, type Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
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
 * every second, ripgrep is checked: where `/proc` shows it busy, nothing more is done (a long search of a big tree
 * must not pay for a walk of it); where it shows ripgrep waiting to open a FIFO, or cannot tell, the tree (and the
 * directories above it) is looked over for FIFO ignore files, and each is opened for writing without blocking and
 * closed at once: ripgrep's open then returns and it reads an empty file. Nothing is written. An open that finds no
 * reader waiting fails at once (ENXIO) and is ignored. `ripgrepPid` gives ripgrep's process id once it runs.
 */
export function releaseIgnoreFifos(root: string, ripgrepPid: () => number | undefined): StopReleasing {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      void lookIfWaiting(root, ripgrepPid(), () => stopped).then(() => {
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

async function lookIfWaiting(root: string, pid: number | undefined, isStopped: () => boolean): Promise<void> {
  if (pid === undefined || (await waitsOnFifoOpen(pid)) === false || isStopped()) return;
  await lookOnce(root, isStopped);
}

async function lookOnce(root: string, isStopped: () => boolean): Promise<void> {
  const candidates: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    for (const name of RIPGREP_IGNORE_NAMES) candidates.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  await Promise.all(candidates.map((candidate) => releaseIfFifo(candidate, undefined)));

  const queue = [root];
  let budget = MAX_ENTRIES_PER_LOOK;
  while (queue.length > 0 && budget > 0 && !isStopped()) {
    const dir = queue.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    budget -= entries.length;
    const releases: Array<Promise<void>> = [];
    for (const entry of entries) {
      const entryPath = path.join(dir, entry.name);
      if (RIPGREP_IGNORE_NAMES.has(entry.name)) releases.push(releaseIfFifo(entryPath, entry));
      else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) queue.push(entryPath);
    }
    await Promise.all(releases);
  }
}

/** Opens and closes `filePath` for writing when it is a FIFO (or a symlink to one); never waits, never writes. */
async function releaseIfFifo(filePath: string, entry: Dirent | undefined): Promise<void> {
  try {
    const isFifo =
      entry !== undefined && !entry.isSymbolicLink() ? entry.isFIFO() : (await stat(filePath)).isFIFO();
    if (!isFifo) return;
    const handle = await open(filePath, constants.O_WRONLY | constants.O_NONBLOCK);
    await handle.close();
  } catch {
    // Missing, not a FIFO any more, or no reader waiting (ENXIO): nothing to release.
  }
}
