import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runProgram, type TempWorkspace } from '@kimi-tools/test-kit';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const VITEST_CLI = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** What a vitest run of snippets reported: the status of each test, by file and name. */
export interface VitestReport {
  exitCode: number | null;
  tests: Array<{ file: string; name: string; status: string }>;
  output: string;
}

/**
 * Runs snippets that are test files (the test kit's README) with vitest, as a package of this repository runs its
 * tests: `src/{name}.test.ts` in a package directory beside the workspace, with the repository's test config (workspace
 * packages from their sources) and this package's dependencies.
 */
export async function runVitestSnippets(
  workspace: TempWorkspace,
  files: Readonly<Record<string, string>>,
): Promise<VitestReport> {
  const directory = path.join(workspace.root, 'vitest-package');
  await fs.mkdir(path.join(directory, 'src'), { recursive: true });
  await fs.symlink(path.join(PACKAGE_DIR, 'node_modules'), path.join(directory, 'node_modules'), 'dir');
  await fs.writeFile(
    path.join(directory, 'package.json'),
    '{ "name": "snippets", "private": true, "type": "module" }\n',
  );
  const shared = pathToFileURL(path.join(REPOSITORY, 'vitest.shared.ts')).href;
  await fs.writeFile(
    path.join(directory, 'vitest.config.ts'),
    `import { packageTestConfig } from '${shared}';\nexport default packageTestConfig();\n`,
  );
  for (const [name, code] of Object.entries(files)) {
    await fs.writeFile(path.join(directory, 'src', `${name}.test.ts`), code);
  }
  const report = path.join(directory, 'report.json');
  const run = await runProgram(
    { command: process.execPath, args: [VITEST_CLI, 'run', '--reporter=json', `--outputFile=${report}`] },
    { cwd: directory, timeoutMs: 120_000 },
  );
  const json = JSON.parse(await fs.readFile(report, 'utf8')) as {
    testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
  };
  return {
    exitCode: run.exitCode,
    tests: json.testResults.flatMap((file) =>
      file.assertionResults.map((test) => ({
        file: path.basename(file.name),
        name: test.fullName,
        status: test.status,
      })),
    ),
    output: run.stdout + run.stderr,
  };
}
