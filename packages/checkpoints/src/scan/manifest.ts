/**
 * What a checkpoint recorded of one path of the workspace (paths are `/`-separated, relative to the workspace root).
 * A file carries the stamp it had when it was hashed (size, mode, times, inode where the backend knows them), so the
 * next scan hashes only files whose stamp moved.
 */
export type ManifestEntry =
  | ({ type: 'file'; hash: string } & EntryStamp)
  /** A file over the size limit: its stamp is recorded, its content is not, so it cannot be restored. */
  | ({ type: 'large' } & EntryStamp)
  | { type: 'link'; target: string }
  | { type: 'dir'; mode: number };

/** The stamp of a file in a manifest; the optional fields are those the backend knows. */
export interface EntryStamp {
  size: number;
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  mtimeMs: number;
  mtimeNs?: string;
  ctimeNs?: string;
  ino?: string;
  dev?: string;
}

/** Every tracked path of the workspace at one moment, sorted. */
export interface Manifest {
  version: 1;
  entries: Record<string, ManifestEntry>;
  /** When the scan began (`Date.now()`): files modified close before it are hashed again by the next scan. */
  scannedAtMs: number;
}

/** Whether two entries hold the same thing: same content and mode, same link target, same directory mode. */
export function sameContent(a: ManifestEntry | undefined, b: ManifestEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'file':
      return a.hash === (b as typeof a).hash && a.mode === (b as typeof a).mode;
    case 'large':
      return sameStamp(a, b as typeof a);
    case 'link':
      return a.target === (b as typeof a).target;
    case 'dir':
      return a.mode === (b as typeof a).mode;
  }
}

/** Whether two stamps are of the same file version, comparing the fields both have. */
export function sameStamp(a: EntryStamp, b: EntryStamp): boolean {
  return (
    a.size === b.size &&
    a.mode === b.mode &&
    a.mtimeMs === b.mtimeMs &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs &&
    a.ino === b.ino &&
    a.dev === b.dev
  );
}
