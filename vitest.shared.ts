import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  configDefaults,
  defineConfig,
  mergeConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';
import {
  TEST_BACKEND_VARIABLE,
  type TestBackendName,
} from './packages/test-kit/src/backends/backend-names.js';

const REPO_ROOT = path.dirname(fileURLToPath(import.meta.url));
const SCOPE = '@kimi-tools/';

/** Imports Markdown as text in tests, as tsup's `.md` loader does for the bundles. */
const markdownAsText = {
  name: 'markdown-as-text',
  transform(code: string, id: string) {
    if (!id.endsWith('.md')) return undefined;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

/** The subpaths a workspace package exports (`.`, `./<sub>`...), or undefined when there is no such package. */
function exportedSubpaths(packageName: string): string[] | undefined {
  const manifest = path.join(REPO_ROOT, 'packages', packageName, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
  return Object.keys(exports ?? { '.': true });
}

/**
 * Tests run on the sources of every workspace package, never on a build: `@kimi-tools/<pkg>` is
 * `packages/<pkg>/src/index.ts` and `@kimi-tools/<pkg>/<sub>` is `packages/<pkg>/src/<sub>.ts`, for the subpaths the
 * package's `exports` declares (an undeclared one fails here as it would for a user).
 */
const workspaceSources = {
  name: 'workspace-sources',
  enforce: 'pre' as const,
  resolveId(id: string) {
    if (!id.startsWith(SCOPE)) return null;
    const [packageName = '', ...rest] = id.slice(SCOPE.length).split('/');
    const subpath = rest.join('/');
    const exported = exportedSubpaths(packageName);
    if (!exported || subpath === 'package.json') return null;
    if (!exported.includes(subpath === '' ? '.' : `./${subpath}`)) {
      throw new Error(`${id} is not exported by packages/${packageName}/package.json`);
    }
    return path.join(REPO_ROOT, 'packages', packageName, 'src', `${subpath || 'index'}.ts`);
  },
};

/** Whether the package under test uses fast-check: only then is a seed chosen and applied. */
function usesFastCheck(packageDir: string): boolean {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  return Boolean(manifest['dependencies']?.['fast-check'] ?? manifest['devDependencies']?.['fast-check']);
}

/**
 * Seeds fast-check (see `test-setup/`) in the packages that use it; the others do not pay for importing it. A plugin,
 * because only here is the package's directory known both under `pnpm test` and under the root's `vitest`.
 */
const fastCheckSeed = {
  name: 'fast-check-seed',
  config(config: ViteUserConfig) {
    if (!usesFastCheck(config.root ?? process.cwd())) return undefined;
    return {
      test: {
        globalSetup: [path.join(REPO_ROOT, 'test-setup/fast-check-seed.global.ts')],
        setupFiles: [path.join(REPO_ROOT, 'test-setup/fast-check-seed.ts')],
      },
    };
  },
};

/**
 * Which file-system backends a package's suite runs on besides the local disk: `true` for the whole suite on the
 * in-memory and the SSH backend (its unit tests: the end-to-end ones run the built packages once, on the local disk),
 * or, per backend, the directories under the package whose tests run there (their end-to-end tests too).
 */
export type BackendRuns = true | Partial<Record<'memory' | 'ssh', readonly string[]>>;

/**
 * One project per backend, each with the same tests (or those of its directories), named after the backend
 * (` ssh  src/...` in the output) and on it through `KIMI_TEST_FS` (packages/test-kit: the `workspace` fixture and its
 * runtimes are on it). The SSH run gets one real OpenSSH server on 127.0.0.1 for the whole run.
 */
function backendProjects(runs: BackendRuns, include: string, mode: string): TestProjectInlineConfiguration[] {
  const e2e = mode === 'e2e';
  const kit = path.join(REPO_ROOT, 'packages/test-kit/src/backends');
  const project = (backend: TestBackendName, files: readonly string[]): TestProjectInlineConfiguration => ({
    // vitest concatenates the lists of a project and of the config it extends: `include` is each project's own.
    extends: true,
    // The config is evaluated again for each project, with the default mode unless given this run's.
    mode,
    test: {
      name: backend,
      include: [...files],
      env: { [TEST_BACKEND_VARIABLE]: backend },
      ...(backend === 'ssh' ? { globalSetup: [path.join(kit, 'ssh-global-setup.ts')] } : {}),
      ...(backend === 'local' ? {} : { setupFiles: [path.join(kit, 'backend-setup.ts')] }),
    },
  });
  const others = (['memory', 'ssh'] as const).flatMap((backend) => {
    if (runs === true) return e2e ? [] : [project(backend, [include])];
    const directories = runs[backend];
    if (!directories) return [];
    return [
      project(
        backend,
        directories.map((directory) => path.posix.join(directory, e2e ? '**/*.e2e.test.ts' : '**/*.test.ts')),
      ),
    ];
  });
  return others.length === 0 ? [] : [project('local', [include]), ...others];
}

/**
 * Workers of a suite whose tests mostly wait on other processes (round trips to an SSH server, language servers):
 * vitest's default on two cores is one worker, which runs the files one after the other while a core idles; a second
 * runs other files meanwhile. `packageTestConfig({ test: { maxWorkers: WAITING_SUITE_WORKERS } })`.
 */
export const WAITING_SUITE_WORKERS = Math.max(2, os.availableParallelism() - 1);

/**
 * Where the projects of one run share the modules vite transformed (vitest's `experimental.fsModuleCache`): a
 * directory of this process, removed when it exits. Each backend project has its own vite server, which transformed
 * the same sources again (about a tenth of the CPU of a package's suite). Never kept from one run to the next, so no
 * transform can outlive a change its key does not see (a resolution that moved, say). The same path for every
 * evaluation of the config in this process (vitest evaluates it again for each project).
 */
function runModuleCache(): string {
  const directory = path.join(
    os.tmpdir(),
    `kimi-tools-vitest-modules-${process.pid}-${Math.round(performance.timeOrigin)}`,
  );
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

/** Test files that need built packages or binaries: they run in `test:e2e` (after `build`), never in `test`. */
const E2E_TESTS = 'src/**/*.e2e.test.ts';

/**
 * The test config of one package: only its own tests (the root config lists every project), workspace packages from
 * their sources, Markdown as text, fast-check seeded (see `test-setup/`), and timeouts that hold on a loaded two-core
 * machine (tests assert behaviour, never durations). `vitest run` runs the unit tests; `vitest run --mode e2e` the
 * end-to-end ones (`everything` runs both, for the soak run). With `backends`, they run once per file-system backend
 * ({@link BackendRuns}).
 */
export function packageTestConfig(
  overrides: ViteUserConfig = {},
  { everything = false, backends }: { everything?: boolean; backends?: BackendRuns } = {},
) {
  return defineConfig(({ mode }) => {
    const e2e = mode === 'e2e';
    const include = e2e ? E2E_TESTS : 'src/**/*.test.ts';
    const projects = backends ? backendProjects(backends, include, mode) : [];
    const base: ViteUserConfig = {
      plugins: [workspaceSources, markdownAsText, fastCheckSeed],
      test: {
        ...(projects.length === 0
          ? { include: [include] }
          : {
              projects,
              // The SSH project mostly waits on round trips.
              maxWorkers: WAITING_SUITE_WORKERS,
              experimental: { fsModuleCache: true, fsModuleCachePath: runModuleCache() },
            }),
        exclude: [...configDefaults.exclude, ...(e2e || everything ? [] : [E2E_TESTS])],
        testTimeout: 30_000,
        hookTimeout: 60_000,
        // The unit tests of a worker share one module graph instead of importing core and zod again for every file
        // (about half the CPU of `pnpm test`); sound because no module keeps mutable state. A package whose tests
        // replace a module (`vi.mock`) turns isolation back on in its own config. The end-to-end runs (and the soak
        // run, which includes them) stay isolated.
        isolate: e2e || everything,
      },
    };
    return mergeConfig(base, overrides);
  });
}
