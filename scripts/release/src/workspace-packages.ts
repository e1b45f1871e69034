import { promises as fs } from 'node:fs';
import path from 'node:path';
import { workspaceDirectories } from '@kimi-tools/new-tool/repository';
import type { Manifest } from './manifest.js';

/** A package of the workspace that is published (not `private`). */
export interface WorkspacePackage {
  /** Where it lives, relative to the root (`packages/read`). */
  directory: string;
  manifest: Manifest;
}

/** The published packages of the workspace at `root`, by name. */
export async function publishedPackages(root: string): Promise<Map<string, WorkspacePackage>> {
  const found = new Map<string, WorkspacePackage>();
  for (const directory of await workspaceDirectories(root)) {
    const file = path.join(root, directory, 'package.json');
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const manifest = JSON.parse(text) as Manifest;
    if (!manifest.private) found.set(manifest.name, { directory, manifest });
  }
  return found;
}
