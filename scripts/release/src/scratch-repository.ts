import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { runCli } from '@kimi-tools/new-tool/cli';
import { pnpmCommand } from '@kimi-tools/new-tool/pnpm-command';
import { copyRepository } from '@kimi-tools/new-tool/repository';
import { mustRun } from './run-command.js';
import { publishedPackages } from './workspace-packages.js';

/** The tool package the rehearsal generates and publishes as a third party would: `pnpm new-tool file-facts`. */
export const THIRD_PARTY_TOOL = {
  args: ['file-facts', '--tool-name', 'FileFacts'],
  packageName: '@kimi-tools/file-facts',
} as const;

/** What the build made beside the sources (gitignored, so `copyRepository` leaves it): the code and the licence. */
const BUILD_OUTPUTS = ['dist', 'LICENSE'];

/** Runs the repository's pnpm in `cwd`. */
export function pnpm(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const [command, prefix] = pnpmCommand();
  return mustRun(command, [...prefix, ...args], { cwd, env });
}

/**
 * Makes `scratch` a working copy of the repository at `root` as a maintainer has it before a release: its files
 * (tracked and untracked, not ignored), the packages as `pnpm build` left them, the changesets waiting for the next
 * release, a tool package from `pnpm new-tool` with the changeset the generator writes, and `pnpm install` done.
 */
export async function prepareScratchRepository(root: string, scratch: string): Promise<void> {
  await copyRepository(root, scratch);
  for (const { directory } of (await publishedPackages(root)).values()) {
    for (const output of BUILD_OUTPUTS) {
      const built = path.join(root, directory, output);
      if (!existsSync(built)) throw new Error(`${directory} has no ${output}: run \`pnpm build\` first.`);
      await fs.cp(built, path.join(scratch, directory, output), { recursive: true });
    }
  }
  const problems: string[] = [];
  const code = await runCli(THIRD_PARTY_TOOL.args, scratch, {
    out: () => {},
    err: (text) => problems.push(text),
  });
  if (code !== 0)
    throw new Error(`pnpm new-tool ${THIRD_PARTY_TOOL.args.join(' ')} failed: ${problems.join('\n')}`);
  // The new package is a new importer: its ranges are resolved, from the store and the metadata cache where they
  // can be (--prefer-offline), and the lockfile changes (--no-frozen-lockfile, which CI=true would otherwise forbid).
  await pnpm(['install', '--prefer-offline', '--no-frozen-lockfile', '--reporter=append-only'], scratch);
}
