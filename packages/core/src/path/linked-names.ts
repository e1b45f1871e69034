import type { PlatformPath } from 'node:path';
import type { FileStats, FileSystem } from '../fs/file-system.js';

/** Directory listings one runtime keeps; past this many, the least recently used is dropped. */
const MAX_CACHED_DIRS = 256;

/**
 * A directory whose last change is more recent than this may change again within the same timestamp tick without
 * its times moving (Linux stamps with a clock tick of a few ms, FAT with 2 s): its listing is used once, not kept.
 */
const RACY_WINDOW_NS = 2_000_000_000n;

/** A directory's identity and times, when the backend reports all of them (else its listing is never kept). */
interface DirectoryVersion {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

/** What a directory held when it was listed: its version, and its candidates by file identity. */
interface Listing {
  readonly version: DirectoryVersion | undefined;
  /** `dev:ino` → paths of the candidate names that lead to that file. */
  readonly byFile: ReadonlyMap<string, readonly string[]>;
}

/** The identity of a file across all its hard links; `undefined` where the backend gives none. */
function fileKey(stats: FileStats): string | undefined {
  if (stats.ino === undefined || stats.dev === undefined || stats.ino === 0n) return undefined;
  return `${stats.dev}:${stats.ino}`;
}

function versionOf(stats: FileStats): DirectoryVersion | undefined {
  const { dev, ino, mtimeNs, ctimeNs } = stats;
  if (dev === undefined || ino === undefined || mtimeNs === undefined || ctimeNs === undefined)
    return undefined;
  return { dev, ino, mtimeNs, ctimeNs };
}

function sameVersion(a: DirectoryVersion, b: DirectoryVersion): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * Finds the other names of a multiply-linked file among the candidate names (those that look sensitive) of a few
 * directories, so that a hard link called `notes.txt` is known to be `.env`. A file's other names cannot be found
 * without walking the whole file system; the caller chooses where to look.
 *
 * Listings are cached per runtime and trusted only while the directory keeps its device, inode, modification and
 * change times to the nanosecond: adding, removing or renaming an entry changes the directory's times, and nothing
 * else changes which file a name leads to. A directory changed within the last 2 s is listed again on every use, and
 * so is every directory of a backend that does not report all four. Concurrent looks at one directory share a listing.
 */
export class LinkedNames {
  private readonly listings = new Map<string, Listing>();
  private readonly inFlight = new Map<string, Promise<Listing | undefined>>();

  /** `isCandidate`: whether a path's name makes it worth recording. */
  constructor(
    private readonly fs: FileSystem,
    private readonly isCandidate: (filePath: string) => boolean,
    private readonly pathApi: PlatformPath,
  ) {}

  /** The candidate names, in `dirs`, of the file whose stats are `file` (its own path included if a candidate). */
  async find(file: FileStats, dirs: Iterable<string>): Promise<string[]> {
    const key = fileKey(file);
    if (key === undefined) return []; // No file identity: its other names cannot be told.
    const listings = await Promise.all([...dirs].map((dir) => this.listing(dir)));
    return listings.flatMap((listing) => listing?.byFile.get(key) ?? []);
  }

  private listing(dir: string): Promise<Listing | undefined> {
    let pending = this.inFlight.get(dir);
    if (pending === undefined) {
      pending = this.look(dir).finally(() => this.inFlight.delete(dir));
      this.inFlight.set(dir, pending);
    }
    return pending;
  }

  private async look(dir: string): Promise<Listing | undefined> {
    const stats = await this.fs.stat(dir).catch(() => undefined);
    const cached = this.listings.get(dir);
    this.listings.delete(dir);
    if (!stats?.isDirectory()) return undefined;
    const version = versionOf(stats);
    if (cached?.version && version && sameVersion(cached.version, version)) {
      this.listings.set(dir, cached); // most recently used last
      return cached;
    }
    const listing: Listing = { version, byFile: await this.scan(dir) };
    if (version === undefined) return listing;
    const changed = version.mtimeNs > version.ctimeNs ? version.mtimeNs : version.ctimeNs;
    if (BigInt(Date.now()) * 1_000_000n - changed > RACY_WINDOW_NS) {
      this.listings.set(dir, listing);
      if (this.listings.size > MAX_CACHED_DIRS) {
        this.listings.delete(this.listings.keys().next().value as string);
      }
    }
    return listing;
  }

  private async scan(dir: string): Promise<Map<string, string[]>> {
    const byFile = new Map<string, string[]>();
    let names: string[];
    try {
      names = (await this.fs.readdir(dir)).map((entry) => entry.name);
    } catch {
      return byFile;
    }
    const candidates = names.map((name) => this.pathApi.join(dir, name)).filter(this.isCandidate);
    const stats = await Promise.all(
      candidates.map((candidate) => this.fs.stat(candidate).catch(() => undefined)),
    );
    candidates.forEach((candidate, index) => {
      const candidateStats = stats[index];
      if (!candidateStats?.isFile()) return;
      const key = fileKey(candidateStats);
      if (key === undefined) return;
      byFile.set(key, [...(byFile.get(key) ?? []), candidate]);
    });
    return byFile;
  }
}
