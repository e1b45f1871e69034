import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { LocalRegistry } from './local-registry.js';
import { pnpm } from './scratch-repository.js';
import { publishedPackages } from './workspace-packages.js';

/** A semver bump a changeset asks for. */
export type Bump = 'patch' | 'minor' | 'major';

/** A package's version before and after `changeset version`. */
export interface VersionChange {
  from: string;
  to: string;
}

/** Writes `.changeset/<id>.md`, as `pnpm changeset` does: which packages it bumps, and the summary. */
export async function writeChangeset(
  root: string,
  id: string,
  releases: Readonly<Record<string, Bump>>,
  summary: string,
): Promise<void> {
  const header = Object.entries(releases).map(([name, bump]) => `'${name}': ${bump}`);
  await fs.writeFile(
    path.join(root, '.changeset', `${id}.md`),
    `---\n${header.join('\n')}\n---\n\n${summary}\n`,
  );
}

/** Runs `pnpm changeset version` in `root`; returns the published packages whose version changed. */
export async function versionPackages(root: string): Promise<Map<string, VersionChange>> {
  const before = await publishedPackages(root);
  await pnpm(['changeset', 'version'], root);
  const changes = new Map<string, VersionChange>();
  for (const [name, { manifest }] of await publishedPackages(root)) {
    const from = before.get(name)?.manifest.version;
    if (from !== undefined && from !== manifest.version) changes.set(name, { from, to: manifest.version });
  }
  return changes;
}

/** Imports of a module's own `package.json` (its version), which a build compiles into the code. */
const OWN_MANIFEST_IMPORT = /\bfrom\s*['"](?:\.\.\/)+package\.json['"]/;

/** Whether a package's sources (tests aside) import its `package.json`, so that its build holds its version. */
export async function buildHoldsVersion(packageDir: string): Promise<boolean> {
  const entries = await fs.readdir(path.join(packageDir, 'src'), { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !/\.ts$/.test(entry.name) || /\.test\.ts$/.test(entry.name)) continue;
    if (OWN_MANIFEST_IMPORT.test(await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8')))
      return true;
  }
  return false;
}

/**
 * Builds, after `changeset version`, what the new versions change: the packages never built (a new one) and those
 * whose build compiles their version in. Every other package's build does not read its version, so the code CI built
 * and tested from the same sources is what is published. Returns the packages built.
 */
export async function buildVersionedPackages(root: string, changed: Iterable<string>): Promise<string[]> {
  const packages = await publishedPackages(root);
  const toBuild: string[] = [];
  for (const name of changed) {
    const directory = path.join(root, packages.get(name)?.directory ?? '');
    if (!existsSync(path.join(directory, 'dist')) || (await buildHoldsVersion(directory))) toBuild.push(name);
  }
  // pnpm runs a filtered script in the order of the packages' dependencies.
  if (toBuild.length > 0) await pnpm([...toBuild.map((name) => `--filter=${name}`), 'run', 'build'], root);
  return toBuild;
}

/**
 * Publishes every package whose version the registry lacks, as the release does (`pnpm publish -r`: pnpm packs
 * each package, replacing `workspace:` ranges and applying `publishConfig`, and npm sends it), with the publisher's
 * token in place of a maintainer's. The registry is given on the command line, where it outranks every other
 * setting; the user config holds only the token for the local registry's host, so nothing else (npx fetching pnpm,
 * say) is sent there, and nothing can be published anywhere else.
 */
export async function publishPackages(
  root: string,
  registry: LocalRegistry,
  scratchHome: string,
): Promise<void> {
  const userConfig = path.join(scratchHome, 'publisher.npmrc');
  await fs.writeFile(userConfig, registry.publisherNpmrc);
  // The npm settings the rehearsal's own pnpm put in the environment do not reach the publish: only the token does.
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_config_/i.test(name)) env[name] = value;
  }
  env['npm_config_userconfig'] = userConfig;
  env['npm_config_update_notifier'] = 'false';
  await pnpm(
    ['publish', '-r', `--registry=${registry.url}`, '--no-git-checks', '--reporter=append-only'],
    root,
    env,
  );
}

/** What one release did. */
export interface ReleaseRound {
  /** The packages `changeset version` gave a new version. */
  changes: Map<string, VersionChange>;
  /** The packages built again for it. */
  built: string[];
}

/** The release as a maintainer runs it: `changeset version`, the builds it needs, `pnpm publish -r`. */
export async function release(
  root: string,
  registry: LocalRegistry,
  scratchHome: string,
): Promise<ReleaseRound> {
  const changes = await versionPackages(root);
  const built = await buildVersionedPackages(root, changes.keys());
  await publishPackages(root, registry, scratchHome);
  return { changes, built };
}
