// `pnpm check:generated` (part of `pnpm run ci`): generates a tool package into a temporary copy of the repository and
// runs that package's checks there, so a change to the templates, core, the shared configs or the manifests that
// breaks what `pnpm new-tool` makes fails CI, and the working tree is never touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { runCli } from './cli.js';
import { pnpmCommand } from './pnpm-command.js';
import { copyRepository, REPOSITORY_ROOT } from './repository.js';

/** What the check generates: the class name comes from the tool name and differs from the directory, as for notebook. */
const PROBE_ARGS = ['probe', '--tool-name', 'ProbeEdit'];
const PROBE_PACKAGE = '@kimi-tools/probe';

/** The files of `directory` that prettier checks (the repository's ignore file applied) and formats differently. */
async function unformatted(root: string, directory: string): Promise<string[]> {
  const entries = await fs.readdir(path.join(root, directory), { recursive: true, withFileTypes: true });
  const ignorePath = path.join(root, '.prettierignore');
  const wrong: string[] = [];
  for (const entry of entries.filter((item) => item.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await prettier.getFileInfo(file, { ignorePath });
    if (info.ignored || !info.inferredParser) continue;
    const options = (await prettier.resolveConfig(file)) ?? {};
    if (!(await prettier.check(await fs.readFile(file, 'utf8'), { ...options, filepath: file }))) {
      wrong.push(path.relative(root, file));
    }
  }
  return wrong;
}

/** Runs a command in `cwd`, its output shown, then how long it took; throws when it fails. */
function run(command: string, args: readonly string[], cwd: string): void {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.signal ?? `exit ${result.status}`}) in ${cwd}`,
    );
  }
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * The turbo cache this repository's runs fill: `.turbo/cache` beside the main checkout, which turbo shares between
 * the git worktrees of a repository (in a plain clone, this repository's own).
 */
function turboCacheDir(): string {
  const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  }).trim();
  return path.join(path.dirname(common), '.turbo/cache');
}

async function main(): Promise<void> {
  const started = Date.now();
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-new-tool-'));
  try {
    console.log(`check:generated: ${await copyRepository(REPOSITORY_ROOT, copy)} files copied to ${copy}`);
    const code = await runCli(PROBE_ARGS, copy, { out: console.log, err: console.error });
    if (code !== 0) throw new Error(`pnpm new-tool ${PROBE_ARGS.join(' ')} failed in ${copy}`);
    // The rest of the copy is what `pnpm run ci` checked already.
    const wrong = await unformatted(copy, 'packages/probe');
    if (wrong.length > 0) throw new Error(`not formatted as prettier --check wants: ${wrong.join(', ')}`);
    // From the local store where it can: a new importer means resolving its ranges, and a --frozen-lockfile install
    // never fetched the registry metadata that needs, so --prefer-offline asks the registry only for what the store
    // and cache lack (--offline failed from empty caches). A new importer means the lockfile changes, so
    // --no-frozen-lockfile is explicit: under CI=true pnpm freezes the lockfile by default. Only the root (turbo,
    // eslint, tsup...) and the new package with its dependencies are linked: the rest is not checked.
    const [pnpm, pnpmArgs] = pnpmCommand();
    const root = JSON.parse(await fs.readFile(path.join(copy, 'package.json'), 'utf8')) as { name: string };
    run(
      pnpm,
      [
        ...pnpmArgs,
        'install',
        '--prefer-offline',
        '--no-frozen-lockfile',
        `--filter=${PROBE_PACKAGE}...`,
        `--filter=${root.name}`,
        '--reporter=append-only',
      ],
      copy,
    );
    // The new package's checks with whatever of its dependencies they need built; the turbo cache of this
    // repository is read (never written), so what `pnpm run ci` just built is not built again. Through pnpm exec:
    // turbo looks for pnpm on the PATH.
    run(
      pnpm,
      [
        ...pnpmArgs,
        'exec',
        'turbo',
        'run',
        'lint',
        'typecheck',
        'test',
        'build',
        'check:package',
        `--filter=${PROBE_PACKAGE}`,
        `--cache-dir=${turboCacheDir()}`,
        '--cache=local:r',
        '--concurrency=2',
        '--output-logs=new-only',
      ],
      copy,
    );
    console.log(
      `check:generated: ${PROBE_PACKAGE} passed every check in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  } finally {
    await fs.rm(copy, { recursive: true, force: true });
  }
}

await main();
