import path from 'node:path';
import { parseCliArgs, USAGE } from './cli-args.js';
import { directoryProblem } from './check-directory.js';
import { cliErrorText } from './errors.js';

// Exit code of every command-line mistake (usage errors, unusable directories).
const USAGE_ERROR = 2;

function fail(message: string): void {
  process.stderr.write(cliErrorText(message));
  process.exitCode = USAGE_ERROR;
}

/** The rules of the `--permissions` file, or why it cannot be used (core loads only when the flag is given). */
async function permissionRules(file: string): Promise<string[] | string> {
  const { readPermissionsFile } = await import('./permissions-file.js');
  const read = await readPermissionsFile(file);
  return 'error' in read ? read.error : read.rules;
}

async function main(): Promise<void> {
  // stdout carries only protocol messages: anything a dependency logs goes to stderr instead.
  console.log = console.info = console.debug = console.error;

  const command = parseCliArgs(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (command.kind === 'error') return fail(command.message);

  const workDir = path.resolve(command.workDir);
  const addDirs = command.addDirs.map((dir) => path.resolve(dir));
  const problems = await Promise.all([
    directoryProblem(workDir, 'WORKDIR'),
    ...addDirs.map((dir) => directoryProblem(dir, '--add-dir')),
  ]);
  const problem = problems.find((text) => text !== undefined);
  if (problem) return fail(problem);
  const permissions =
    command.permissionsFile === undefined ? undefined : await permissionRules(command.permissionsFile);
  if (typeof permissions === 'string') return fail(permissions);

  // The SDK and the tools load only once the command line is known to be good, so mistakes are reported fast.
  const [{ createCliServer }, { StdioServerTransport }] = await Promise.all([
    import('./cli-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const server = createCliServer({
    workDir,
    addDirs,
    approval: command.approval,
    structuredContent: command.structuredContent,
    allowOutside: command.allowOutside,
    ...(permissions === undefined ? {} : { permissions }),
  });
  server.onerror = (error) => process.stderr.write(`kimi-tools-mcp: ${error.message}\n`);
  await server.connect(new StdioServerTransport());
  // The client closing our stdin ends the session; pending calls finish, then the process exits.
  process.stdin.once('end', () => void server.close());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `kimi-tools-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
