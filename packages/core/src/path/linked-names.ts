import { readdirSync, statSync, type BigIntStats } from 'node:fs';
import type { PlatformPath } from 'node:path';

/** Directory listings one runtime keeps; past this many, the least recently used is dropped. */
const MAX_CACHED_DIRS = 256;

/**
 * A directory whose last change is more recent than this may change again within the same timestamp tick without
 * its times moving (Linux stamps with a clock tick of a few ms, FAT with 2 s): its listing is used once, not kept.
 */
const RACY_WINDOW_NS = 2_000_000_000n;

/** Options of every stat here: exact 64-bit inode numbers and nanosecond times; a missing path is `undefined`. */
const BIGINT_STAT = { bigint: true, throwIfNoEntry: false } as const;

/** What a directory held when it was listed: its own identity and times, and its candidates by file identity. */
interface Listing {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  /** `dev:ino` → paths of the candidate names that lead to that file. */
  readonly byFile: ReadonlyMap<string, readonly string[]>;
}

/** The identity of a file across all its hard links. */
function fileKey(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}`;
}

function statDirectory(dir: string): BigIntStats | undefined {
  try {
    const stats = statSync(dir, BIGINT_STAT);
    return stats?.isDirectory() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the other names of a multiply-linked file among the candidate names (those that look sensitive) of a few
 * directories, so that a hard link called `notes.txt` is known to be `.env`. A file's other names cannot be found
 * without walking the whole file system; the caller chooses where to look.
 *
 * Listings are cached per runtime and trusted only while the directory keeps its device, inode, modification and
 * change times to the nanosecond: adding, removing or renaming an entry changes the directory's times, and nothing
 * else changes which file a name leads to. A directory changed within the last 2 s is listed again on every use.
 */
export class LinkedNames {
  private readonly listings = new Map<string, Listing>();

  /** `isCandidate`: whether a path's name makes it worth recording. */
  constructor(
    private readonly isCandidate: (filePath: string) => boolean,
    private readonly pathApi: PlatformPath,
  ) {}

  /** The candidate names, in `dirs`, of the file whose stats are `file` (its own path included if a candidate). */
  find(file: BigIntStats, dirs: Iterable<string>): string[] {
    if (file.ino === 0n) return []; // Some file systems give no file identity.
    const key = fileKey(file);
    const found: string[] = [];
    for (const dir of dirs) {
      const names = this.listing(dir)?.byFile.get(key);
      if (names) found.push(...names);
    }
    return found;
  }

  private listing(dir: string): Listing | undefined {
    const stats = statDirectory(dir);
    const cached = this.listings.get(dir);
    this.listings.delete(dir);
    if (!stats) return undefined;
    if (
      cached &&
      cached.dev === stats.dev &&
      cached.ino === stats.ino &&
      cached.mtimeNs === stats.mtimeNs &&
      cached.ctimeNs === stats.ctimeNs
    ) {
      this.listings.set(dir, cached); // most recently used last
      return cached;
    }
    const listing: Listing = {
      dev: stats.dev,
      ino: stats.ino,
      mtimeNs: stats.mtimeNs,
      ctimeNs: stats.ctimeNs,
      byFile: this.scan(dir),
    };
    const changed = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
    if (BigInt(Date.now()) * 1_000_000n - changed > RACY_WINDOW_NS) {
      this.listings.set(dir, listing);
      if (this.listings.size > MAX_CACHED_DIRS) {
        this.listings.delete(this.listings.keys().next().value as string);
      }
    }
    return listing;
  }

  private scan(dir: string): Map<string, string[]> {
    const byFile = new Map<string, string[]>();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return byFile;
    }
    for (const name of names) {
      const candidate = this.pathApi.join(dir, name);
      if (!this.isCandidate(candidate)) continue;
      let stats: BigIntStats | undefined;
      try {
        stats = statSync(candidate, BIGINT_STAT);
      } catch {
        continue;
      }
      if (!stats?.isFile()) continue;
      const key = fileKey(stats);
      byFile.set(key, [...(byFile.get(key) ?? []), candidate]);
    }
    return byFile;
  }
}
