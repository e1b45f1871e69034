import { sameContent, type Manifest, type ManifestEntry } from './manifest.js';

/**
 * How one file differs between two checkpoints (or a checkpoint and now): `created`, `deleted`, `modified` (content,
 * mode, link target, or what kind of thing it is), or `renamed` from `from` (a deleted path with the very same
 * content as a created one).
 */
export interface FileChange {
  path: string;
  change: 'created' | 'deleted' | 'modified' | 'renamed';
  /** The path it had before, for `renamed`. */
  from?: string;
}

/** Whether an entry is a file-like thing a change is counted for (directories are not). */
function counted(entry: ManifestEntry | undefined): entry is Exclude<ManifestEntry, { type: 'dir' }> {
  return entry !== undefined && entry.type !== 'dir';
}

/** The paths whose entries differ between `before` and `after`, directories included, sorted. */
function differingPaths(before: Manifest['entries'], after: Manifest['entries']): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...paths].filter((path) => !sameContent(before[path], after[path])).sort();
}

/** The file changes from `before` to `after`, renames paired by content, sorted by path. */
export function fileChanges(before: Manifest['entries'], after: Manifest['entries']): FileChange[] {
  const changes: FileChange[] = [];
  const deleted: string[] = [];
  const created: string[] = [];
  for (const path of differingPaths(before, after)) {
    const old = counted(before[path]) ? before[path] : undefined;
    const now = counted(after[path]) ? after[path] : undefined;
    if (old === undefined && now === undefined) continue;
    if (old === undefined) created.push(path);
    else if (now === undefined) deleted.push(path);
    else changes.push({ path, change: 'modified' });
  }
  const renamedFrom = new Set<string>();
  for (const path of created) {
    const key = contentKey(path, after[path]!);
    const from = deleted.find((old) => !renamedFrom.has(old) && contentKey(old, before[old]!) === key);
    if (from !== undefined) {
      renamedFrom.add(from);
      changes.push({ path, change: 'renamed', from });
    } else changes.push({ path, change: 'created' });
  }
  for (const path of deleted) if (!renamedFrom.has(path)) changes.push({ path, change: 'deleted' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What makes two entries the same content for rename pairing (a large file, never hashed, is never paired). */
function contentKey(path: string, entry: ManifestEntry): string {
  if (entry.type === 'file') return `file:${entry.hash}`;
  if (entry.type === 'link') return `link:${entry.target}`;
  return `path:${path}`;
}
