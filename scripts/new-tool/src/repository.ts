import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this generator belongs to (`scripts/new-tool/src/` is three levels down). */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The generator's templates. */
export const TEMPLATES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../templates');

/** The manifest fields a generated package copies from core's, so that versions live in one place. */
export interface SharedManifestValues {
  repositoryUrl: string;
  /** The repository's web address (`https://github.com/<owner>/<repo>`), for `homepage` and `bugs`. */
  repositoryWebUrl: string;
  nodeRange: string;
  zodPeerRange: string;
  zodDevRange: string;
}

interface Manifest {
  name?: string;
  repository?: { url?: string };
  engines?: { node?: string };
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

async function readManifest(file: string): Promise<Manifest> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as Manifest;
}

/** Reads the repository URL (and its web address), Node range and zod ranges from `packages/core/package.json`. */
export async function sharedManifestValues(root: string): Promise<SharedManifestValues> {
  const file = path.join(root, 'packages/core/package.json');
  const core = await readManifest(file);
  const values = {
    repositoryUrl: core.repository?.url,
    nodeRange: core.engines?.node,
    zodPeerRange: core.peerDependencies?.['zod'],
    zodDevRange: core.devDependencies?.['zod'],
  };
  for (const [field, value] of Object.entries(values)) {
    if (!value) throw new Error(`${file} has no ${field}: the generated package copies it from there.`);
  }
  const repositoryWebUrl = /^git\+(https:\/\/.+?)\.git$/.exec(values.repositoryUrl ?? '')?.[1];
  if (!repositoryWebUrl) {
    throw new Error(
      `${file}: repository.url is not git+https://<host>/<owner>/<repo>.git, as npm provenance needs.`,
    );
  }
  return { ...(values as Omit<SharedManifestValues, 'repositoryWebUrl'>), repositoryWebUrl };
}

/** The directories `pnpm-workspace.yaml` lists (`packages/*` expanded), relative to the root. */
export async function workspaceDirectories(root: string): Promise<string[]> {
  const yaml = await fs.readFile(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = /^packages:\n((?:[ \t]+-.*\n?)*)/m.exec(yaml)?.[1] ?? '';
  const patterns = [...section.matchAll(/^[ \t]+-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map(
    (match) => match[1] ?? '',
  );
  const directories: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.endsWith('/*')) {
      directories.push(pattern);
      continue;
    }
    const parent = pattern.slice(0, -2);
    const entries = await fs.readdir(path.join(root, parent), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) directories.push(`${parent}/${entry.name}`);
  }
  return directories;
}

/** Where a workspace package of that npm name already lives (relative to the root), if one does. */
export async function workspacePackageNamed(root: string, packageName: string): Promise<string | undefined> {
  for (const directory of await workspaceDirectories(root)) {
    const manifest = path.join(root, directory, 'package.json');
    if (existsSync(manifest) && (await readManifest(manifest)).name === packageName) return directory;
  }
  return undefined;
}

/**
 * Copies the files git would see in the repository at `root` (tracked and untracked, not ignored) as they are in the
 * working tree to `target`; returns how many.
 */
export async function copyRepository(root: string, target: string): Promise<number> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  let copied = 0;
  for (const file of listed.split('\0').filter(Boolean)) {
    const source = path.join(root, file);
    // A tracked file deleted in the working tree is not copied.
    const stats = await fs.lstat(source).catch(() => undefined);
    if (!stats || stats.isDirectory()) continue;
    await fs.mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await fs.cp(source, path.join(target, file), { preserveTimestamps: true, verbatimSymlinks: true });
    copied += 1;
  }
  return copied;
}
