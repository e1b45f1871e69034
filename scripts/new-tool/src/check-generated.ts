// `pnpm check:generated` (part of `pnpm run ci`): generates a tool package into a temporary copy of the repository and
// runs that package's checks there, so a change to the templates, core, the shared configs or the manifests that
// breaks what `pnpm new-tool` makes fails CI, and the working tree is never touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './cli.js';
import { REPOSITORY_ROOT } from './repository.js';

/** What the check generates: the class name comes from the tool name and differs from the directory, as for notebook. */
const PROBE_ARGS = ['probe', '--tool-name', 'ProbeEdit'];
const PROBE_PACKAGE = '@kimi-tools/probe';
const PNPM = ['-y', 'pnpm@10.34.8'];

/** Runs a command in `cwd`, its output shown; throws when it fails. */
function run(command: string, args: readonly string[], cwd: string): void {
  console.log(`\n$ ${command} ${args.join(' ')}`);
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
}

/** Copies the files git would see (tracked and untracked, not ignored) as they are in the working tree. */
async function copyRepository(target: string): Promise<number> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  let copied = 0;
  for (const file of listed.split('\0').filter(Boolean)) {
    const source = path.join(REPOSITORY_ROOT, file);
    // A tracked file deleted in the working tree is not copied.
    const stats = await fs.lstat(source).catch(() => undefined);
    if (!stats || stats.isDirectory()) continue;
    await fs.mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await fs.cp(source, path.join(target, file), { preserveTimestamps: true, verbatimSymlinks: true });
    copied += 1;
  }
  return copied;
}

async function main(): Promise<void> {
  const started = Date.now();
  const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'kimi-tools-new-tool-'));
  try {
    console.log(`check:generated: ${await copyRepository(copy)} files copied to ${copy}`);
    const code = await runCli(PROBE_ARGS, copy, { out: console.log, err: console.error });
    if (code !== 0) throw new Error(`pnpm new-tool ${PROBE_ARGS.join(' ')} failed in ${copy}`);
    // From the local store only: the check must not download, and a new importer means no --frozen-lockfile.
    run('npx', [...PNPM, 'install', '--offline', '--reporter=append-only'], copy);
    run('npx', [...PNPM, 'exec', 'prettier', '--check', '.'], copy);
    // The new package's checks with whatever of its dependencies they need built; the turbo cache of this
    // repository is read (never written), so what `pnpm run ci` just built is not built again.
    run(
      'npx',
      [
        ...PNPM,
        'exec',
        'turbo',
        'run',
        'lint',
        'typecheck',
        'test',
        'build',
        'check:package',
        `--filter=${PROBE_PACKAGE}`,
        `--cache-dir=${path.join(REPOSITORY_ROOT, '.turbo/cache')}`,
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
