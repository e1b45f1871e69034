import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Every entry under a directory: relative path → `dir`, `file:<sha256>:<mode>` or `link:<target>`. */
export type TreeSnapshot = Map<string, string>;

/** The SHA-256 of some bytes, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Snapshots a tree without following symlinks: what every file holds (by hash and permission bits), every
 * directory, and where every link points. Two equal snapshots mean nobody changed a byte, a name or a link.
 */
export async function snapshotTree(root: string): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = new Map();
  async function visit(dir: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      if (entry.isSymbolicLink()) {
        snapshot.set(relative, `link:${await fs.readlink(full)}`);
      } else if (entry.isDirectory()) {
        snapshot.set(relative, 'dir');
        await visit(full);
      } else {
        const stats = await fs.lstat(full);
        snapshot.set(
          relative,
          `file:${sha256(await fs.readFile(full))}:${(stats.mode & 0o7777).toString(8)}`,
        );
      }
    }
  }
  await visit(root);
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
