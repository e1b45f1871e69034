import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every entry under a directory: relative path → `dir`, `file:<sha256>:<mode>` or `link:<target>`. */
export type TreeSnapshot = Map<string, string>;

/** The SHA-256 of some bytes, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Snapshots a tree without following symlinks: what every file holds (by hash and permission bits), every
 * directory, and where every link points. Two equal snapshots mean nobody changed a byte, a name or a link. The file
 * system is read synchronously: the path attacks take a snapshot after each of their 1,600 calls, and a promise
 * round trip through libuv's thread pool for every entry cost more than the calls themselves.
 */
export async function snapshotTree(root: string): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = new Map();
  function visit(dir: string): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      if (entry.isSymbolicLink()) {
        snapshot.set(relative, `link:${readlinkSync(full)}`);
      } else if (entry.isDirectory()) {
        snapshot.set(relative, 'dir');
        visit(full);
      } else {
        const stats = lstatSync(full);
        snapshot.set(relative, `file:${sha256(readFileSync(full))}:${(stats.mode & 0o7777).toString(8)}`);
      }
    }
  }
  visit(root);
  return snapshot;
}

/** The entries that differ between two snapshots (added, removed or changed), sorted; empty when equal. */
export function snapshotDifferences(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const changed: string[] = [];
  for (const name of names) {
    const was = before.get(name);
    const now = after.get(name);
    if (was === now) continue;
    if (was === undefined) changed.push(`+ ${name}`);
    else if (now === undefined) changed.push(`- ${name}`);
    else changed.push(`~ ${name}`);
  }
  return changed.sort();
}
