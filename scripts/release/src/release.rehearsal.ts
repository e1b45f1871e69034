// `pnpm release:rehearse` (run by .ci/run after `pnpm run ci`): the real release, to a real npm registry on this
// machine, and the packages installed back as users install them. A scratch copy of the repository is versioned by
// changesets and published with `pnpm publish -r` to Verdaccio (127.0.0.1, a temporary storage, no uplink); fresh
// projects outside the repository then install packages with plain npm (`@kimi-tools/*` from that registry, the
// rest from the npm registry) and use them. CONTRIBUTING.md#releasing says what this stands for.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPOSITORY_ROOT, sharedManifestValues } from '@kimi-tools/new-tool/repository';
import { pngBytes } from '@kimi-tools/test-kit';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { runtimeDependencies } from './manifest.js';
import { listMcpTools, type McpServerListing } from './mcp-session.js';
import { checkPackageFiles } from './package-files.js';
import { publishedManifestProblems, type ManifestExpectations } from './published-manifest.js';
import { fetchPackument, fetchTarball, type PublishedVersion } from './registry-client.js';
import { release, versionPackages, writeChangeset, type ReleaseRound } from './release-round.js';
import { prepareScratchRepository, THIRD_PARTY_TOOL } from './scratch-repository.js';
import { PACKED_SIZE_BUDGETS } from './size-budgets.js';
import { tarballFiles } from './tarball.js';
import { UserProject, userEnvironment } from './user-project.js';
import { publishedPackages } from './workspace-packages.js';

const PROGRAMS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../user-programs');
const CORE = '@kimi-tools/core';
const READ = '@kimi-tools/read';
const NOTES = 'first line\nsecond line\n';

/** Every package the first release publishes: the repository's, and the one `pnpm new-tool` makes in the copy. */
const PACKAGES = [...(await publishedPackages(REPOSITORY_ROOT)).keys(), THIRD_PARTY_TOOL.packageName].sort();

const started = Date.now();
let work: string;
let scratch: string;
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv;
let first: ReleaseRound;
let firstVersions: Map<string, string>;
let expectations: ManifestExpectations;
/** What the rehearsal measured, printed at its end. */
const sizes = new Map<string, { version: string; packed: number; unpacked: number; files: number }>();
const installedAlone = new Map<string, number>();
const phases: string[] = [];
/** What `npx @kimi-tools/mcp-server` answered (see {@link listToolsWithNpx}). */
let npxListing: Promise<McpServerListing> | undefined;

/** Runs one step of the set-up, noting how long it took for the report. */
async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const start = Date.now();
  const result = await step();
  phases.push(`  ${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/** The version of `name` the first release published (the version it had when no changeset was pending). */
function firstVersion(name: string): string {
  const version = firstVersions.get(name);
  if (!version) throw new Error(`the first release did not publish ${name}`);
  return version;
}

/** A fresh user project under the run's folder, installing from the local registry. */
function userProject(name: string): Promise<UserProject> {
  return UserProject.create(path.join(work, 'users'), name, registry.url, env);
}

/**
 * `npx -y @kimi-tools/mcp-server@<first version>` in a fresh project, asked for its tools. It is started as soon as
 * the first release is published and checked by the last test: its install (the server, the SDK, every tool, ssh2's
 * native build) takes about 20 s, twice the other user projects', and mostly waits on the network and the builds, so
 * it runs beside the later releases instead of holding up the rehearsal. What it asserts holds whatever they publish
 * meanwhile: it asks for that exact version of the server, and a later version of a dependency its ranges accept (a
 * patch of read) is what a user installing it then would get.
 */
async function listToolsWithNpx(): Promise<McpServerListing> {
  const project = await userProject('mcp-client');
  const version = firstVersion('@kimi-tools/mcp-server');
  return listMcpTools('npx', ['-y', `@kimi-tools/mcp-server@${version}`, project.dir], {
    cwd: project.dir,
    env,
    timeoutMs: 300_000,
  });
}

/** Copies one of `user-programs/` into a project. */
async function addProgram(project: UserProject, program: string): Promise<string> {
  await project.write(program, await fs.readFile(path.join(PROGRAMS, program)));
  return program;
}

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-release-'));
  scratch = path.join(work, 'repository');
  await fs.writeFile(path.join(work, 'user.npmrc'), '');
  env = userEnvironment(path.join(work, 'npm-cache'), path.join(work, 'user.npmrc'));
  const values = await sharedManifestValues(REPOSITORY_ROOT);
  const root = JSON.parse(await fs.readFile(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    license: string;
  };
  expectations = { repositoryUrl: values.repositoryUrl, nodeRange: values.nodeRange, license: root.license };
  [registry] = await Promise.all([
    timed('the registry started', () => startLocalRegistry(path.join(work, 'registry'))),
    timed('the copy of the repository made and installed', () =>
      prepareScratchRepository(REPOSITORY_ROOT, scratch),
    ),
  ]);
  first = await timed('the first release versioned, built and published', () =>
    release(scratch, registry, work),
  );
  firstVersions = new Map(
    [...(await publishedPackages(scratch))].map(([name, { manifest }]) => [name, manifest.version]),
  );
  npxListing = listToolsWithNpx();
  // Its test awaits it; a failure before then is that test's, not an unhandled rejection.
  npxListing.catch(() => {});
});

afterAll(async () => {
  // The npx session ends before its registry and folder go, even when a test failed before its own.
  await npxListing?.catch(() => {});
  await registry?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const rows = [...sizes].map(
    ([name, size]) =>
      `  ${name.padEnd(26)} ${size.version.padEnd(8)} ${kB(size.packed).padStart(9)} packed` +
      ` (budget ${kB(PACKED_SIZE_BUDGETS[name] ?? 0)}), ${kB(size.unpacked)} unpacked, ${size.files} files`,
  );
  const alone = [...installedAlone].map(([name, kilobytes]) => `  ${name.padEnd(26)} ${kilobytes} kB`);
  console.log(
    [
      'Published tarballs:',
      ...rows,
      'node_modules of a project that installed one package alone (du -sk):',
      ...alone,
      'Set-up:',
      ...phases,
      `Rehearsal: ${Math.round((Date.now() - started) / 1000)} s`,
    ].join('\n'),
  );
});

describe('the next release: the pending changesets, versioned and published', () => {
  test('consumes every pending changeset, and publishes each package at the version it gave', async () => {
    const left = (await fs.readdir(path.join(scratch, '.changeset'))).filter((file) => file.endsWith('.md'));
    expect(left).toEqual([]);
    expect(first.changes.get(THIRD_PARTY_TOOL.packageName)?.from).toBe('0.0.0');
    for (const name of PACKAGES) {
      const packument = await fetchPackument(registry.url, name);
      expect(packument['dist-tags']['latest'], name).toBe(firstVersion(name));
    }
  });

  test.each(PACKAGES)('%s: its manifest and tarball, as the registry serves them', async (name) => {
    const version = firstVersion(name);
    const published: PublishedVersion | undefined = (await fetchPackument(registry.url, name)).versions[
      version
    ];
    if (!published) throw new Error(`${name}@${version} is not in the registry`);
    const directory = (await publishedPackages(scratch)).get(name)?.directory ?? '';
    expect(publishedManifestProblems(published, directory, expectations)).toEqual([]);

    // Every package it needs at run time from this repository is published in a version its range accepts.
    for (const [dependency, range] of runtimeDependencies(published)) {
      if (!dependency.startsWith('@kimi-tools/')) continue;
      const versions = Object.keys((await fetchPackument(registry.url, dependency)).versions);
      expect(semver.maxSatisfying(versions, range), `${dependency}@${range}`).not.toBeNull();
    }

    const tarball = await fetchTarball(published.dist.tarball);
    const files = tarballFiles(tarball);
    expect(checkPackageFiles(published, files)).toEqual({ unreached: [], missing: [] });
    const unpacked = [...files.values()].reduce((sum, content) => sum + content.length, 0);
    sizes.set(name, { version, packed: tarball.length, unpacked, files: files.size });
    expect(PACKED_SIZE_BUDGETS[name], `a packed size budget for ${name} in size-budgets.ts`).toBeDefined();
    expect(tarball.length).toBeLessThanOrEqual(PACKED_SIZE_BUDGETS[name] ?? 0);
  });
});

describe.concurrent('installed with plain npm in fresh projects outside the repository', () => {
  test('@kimi-tools/read alone reads a file from ES modules and CommonJS; a third-party tool shares its core', async ({
    expect,
  }) => {
    const project = await userProject('read-alone');
    await project.install(READ);
    installedAlone.set(READ, await project.nodeModulesKilobytes());
    await project.write('notes.txt', NOTES);
    const expected = {
      isError: false,
      output: '     1\tfirst line\n     2\tsecond line\n',
      message: '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
    };
    expect(await project.runJson(await addProgram(project, 'read-file.mjs'))).toEqual(expected);
    expect(await project.runJson(await addProgram(project, 'read-file.cjs'))).toEqual(expected);

    await project.install(THIRD_PARTY_TOOL.packageName);
    expect(await project.copiesOf(CORE)).toHaveLength(1);
    expect(await project.runJson(await addProgram(project, 'file-facts.mjs'))).toMatchObject({
      isError: false,
      message: expect.stringMatching(/notes\.txt`: text file, 23 bytes, 2 lines\.$/),
    });
  });

  test('@kimi-tools/search alone runs Grep with the ripgrep its @vscode/ripgrep dependency installed', async ({
    expect,
  }) => {
    const project = await userProject('search-alone');
    await project.install('@kimi-tools/search');
    installedAlone.set('@kimi-tools/search', await project.nodeModulesKilobytes());
    await project.write('src/haystack.txt', 'hay\na needle in the hay\nhay\n');
    const result = await project.runJson<{ isError: boolean; output: string; rgPath: string }>(
      await addProgram(project, 'grep.mjs'),
    );
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/haystack\.txt:2:a needle in the hay$/);
    expect(path.relative(project.dir, result.rgPath)).toMatch(
      /^node_modules\/@vscode\/ripgrep-[\w-]+\/bin\/rg$/,
    );
  });

  test('@kimi-tools/media alone hands an image to a model', async ({ expect }) => {
    const project = await userProject('media-alone');
    await project.install('@kimi-tools/media');
    installedAlone.set('@kimi-tools/media', await project.nodeModulesKilobytes());
    await project.write('pixel.png', pngBytes(3, 2));
    expect(await project.runJson(await addProgram(project, 'read-media-file.mjs'))).toMatchObject({
      isError: false,
      parts: ['text', 'image_url', 'text'],
      extras: { kind: 'image', mime: 'image/png', width: 3, height: 2 },
    });
  });

  test('@kimi-tools/ai-sdk with ai runs ReadFile for the AI SDK mock model', async ({ expect }) => {
    const project = await userProject('ai-sdk');
    await project.install('@kimi-tools/ai-sdk', 'ai', READ);
    await project.write('notes.txt', NOTES);
    const result = await project.runJson<{ text: string; toolMessage: unknown }>(
      await addProgram(project, 'ai-sdk-read-file.mjs'),
    );
    expect(result.text).toBe('Read it.');
    expect(JSON.stringify(result.toolMessage)).toContain('first line');
    expect(JSON.stringify(result.toolMessage)).toContain('2 lines read from file starting from line 1.');
  });
});

describe('independent versions', () => {
  let keepsCore: UserProject;
  let second: ReleaseRound;

  test('a changeset for read alone releases read alone; a user with the previous core gets it, one core', async () => {
    keepsCore = await userProject('keeps-core');
    await keepsCore.install(
      `${CORE}@${firstVersion(CORE)}`,
      `${READ}@${firstVersion(READ)}`,
      `@kimi-tools/write@${firstVersion('@kimi-tools/write')}`,
    );

    await writeChangeset(scratch, 'read-fix', { [READ]: 'patch' }, 'ReadFile: a fix.');
    second = await release(scratch, registry, work);
    const readPatch = semver.inc(firstVersion(READ), 'patch');
    expect(Object.fromEntries(second.changes)).toEqual({
      [READ]: { from: firstVersion(READ), to: readPatch },
    });
    expect((await fetchPackument(registry.url, CORE))['dist-tags']['latest']).toBe(firstVersion(CORE));

    await keepsCore.install(`${READ}@latest`);
    expect(await keepsCore.installedVersion(READ)).toBe(readPatch);
    expect(await keepsCore.copiesOf(CORE)).toEqual([path.join(keepsCore.dir, 'node_modules', CORE)]);
    expect(await keepsCore.installedVersion(CORE)).toBe(firstVersion(CORE));
  });

  test('a breaking core: its major, new ranges, and a peer-range message for the user who keeps the old core', async () => {
    const workspace = await publishedPackages(scratch);
    await writeChangeset(scratch, 'core-break', { [CORE]: 'major' }, 'Core: a breaking change.');
    const third = await release(scratch, registry, work);
    const coreVersion = semver.inc(firstVersion(CORE), 'major') ?? '';
    const peers = [...workspace]
      .filter(([, { manifest }]) => manifest.peerDependencies?.[CORE])
      .map(([name]) => name);
    const dependents = [...workspace]
      .filter(([, { manifest }]) => manifest.dependencies?.[CORE])
      .map(([name]) => name);
    const bumps = Object.fromEntries(
      [...third.changes].map(([name, { from, to }]) => [name, semver.diff(from, to)]),
    );
    // The tools take core as a peer: a core their range refuses makes them major. A package that merely depends
    // on core (the server) gets a patch with its new ranges. Nothing else moves.
    expect(bumps).toEqual({
      [CORE]: 'major',
      ...Object.fromEntries(peers.map((name) => [name, 'major'])),
      ...Object.fromEntries(dependents.map((name) => [name, 'patch'])),
    });
    const newRead = third.changes.get(READ)?.to ?? '';
    const publishedRead = (await fetchPackument(registry.url, READ)).versions[newRead];
    expect(publishedRead?.peerDependencies?.[CORE]).toBe(`^${coreVersion}`);

    // The user who keeps the previous core is told which range the new read needs, and keeps what works.
    const refused = await keepsCore.npm(['install', `${READ}@latest`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('ERESOLVE');
    expect(refused.stderr).toContain(`peer ${CORE}@"^${coreVersion}" from ${READ}@${newRead}`);
    expect(await keepsCore.installedVersion(READ)).toBe(second.changes.get(READ)?.to);
    expect(await keepsCore.installedVersion(CORE)).toBe(firstVersion(CORE));

    // A new user gets the new read with the new core, once.
    const newcomer = await userProject('newcomer');
    await newcomer.install(READ);
    expect(await newcomer.installedVersion(CORE)).toBe(coreVersion);
    expect(await newcomer.copiesOf(CORE)).toHaveLength(1);
  });

  test('a release of core that the peer ranges still accept versions core alone', async () => {
    const core = (await publishedPackages(scratch)).get(CORE)?.manifest.version ?? '';
    expect(semver.major(core)).toBeGreaterThanOrEqual(1);
    await writeChangeset(scratch, 'core-feature', { [CORE]: 'minor' }, 'Core: something new.');
    const changes = await versionPackages(scratch);
    expect(Object.fromEntries(changes)).toEqual({ [CORE]: { from: core, to: semver.inc(core, 'minor') } });
  });
});

describe('npx, run while the later releases were made', () => {
  test('npx @kimi-tools/mcp-server answers tools/list over stdio', async () => {
    const listing = await (npxListing ?? Promise.reject(new Error('the npx session never started')));
    expect(listing.server?.version).toBe(firstVersion('@kimi-tools/mcp-server'));
    expect(listing.tools).toEqual(
      expect.arrayContaining(['ReadFile', 'WriteFile', 'StrReplaceFile', 'Glob', 'Grep', 'ReadMediaFile']),
    );
  });
});
