import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  runProgram,
  typeScriptBlocks,
  writeTypeScriptProgram,
  type ProgramRun,
  type TempWorkspace,
  type TypeScriptBlock,
  type TypeScriptProgram,
} from '@kimi-tools/test-kit';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The placeholder the READMEs give for the user's project: the snippets run with the workspace's work dir there. */
export const PROJECT_PLACEHOLDER = '/path/to/project';

/** The `ts` blocks of a README, by its path in the repository (`packages/search/README.md`). */
export function readmeBlocks(readme: string): Promise<TypeScriptBlock[]> {
  return typeScriptBlocks(path.join(REPOSITORY, readme));
}

/** How {@link runSnippet} runs a snippet. */
export interface SnippetOptions {
  /** Code the test adds after the snippet, to print what it checks (the snippet itself runs as written). */
  after?: string;
  /** JavaScript run before the snippet (`node --import`). */
  setup?: string;
  env?: NodeJS.ProcessEnv;
  /** What the snippet reads on stdin. */
  input?: string;
  /** More text of the snippet to stand for something of the test (a host name, a port), on top of the project. */
  replace?: Readonly<Record<string, string>>;
}

let programs = 0;

/**
 * Writes a README snippet as a Node program on the built packages, with {@link PROJECT_PLACEHOLDER} standing for the
 * workspace's work dir; run it in that directory.
 */
export function snippetProgram(
  workspace: TempWorkspace,
  code: string,
  { after = '', setup, replace = {} }: Pick<SnippetOptions, 'after' | 'setup' | 'replace'> = {},
): Promise<TypeScriptProgram> {
  return writeTypeScriptProgram(`${code}\n${after}`, path.join(workspace.root, `program-${++programs}`), {
    packageDir: PACKAGE_DIR,
    replace: { [PROJECT_PLACEHOLDER]: workspace.workDir, ...replace },
    setup,
  });
}

/** Runs a README snippet ({@link snippetProgram}) in the workspace's work dir. */
export async function runSnippet(
  workspace: TempWorkspace,
  code: string,
  { env, input, ...program }: SnippetOptions = {},
): Promise<ProgramRun> {
  return runProgram(await snippetProgram(workspace, code, program), { cwd: workspace.workDir, env, input });
}
