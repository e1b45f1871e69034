import path from 'node:path';
import { parseCliArgs, USAGE } from './cli-args.js';
import { directoryProblem } from './check-directory.js';
import { cliErrorText, requestTooLargeMessage } from './errors.js';
import type { RemoteWorkspace } from './remote-workspace.js';
import { MAX_REQUEST_BYTES, WholeLines, type DroppedMessage } from './whole-lines.js';

/** The local work dir and `--add-dir` directories, absolute; on the local disk (no `fs` of its own). */
interface LocalWorkspace {
  workDir: string;
  addDirs: string[];
  fs?: undefined;
}

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
  // The rules file is on this machine, whatever the workspace: read before connecting, so a bad rule fails fast.
  const permissions =
    command.permissionsFile === undefined ? undefined : await permissionRules(command.permissionsFile);
  if (typeof permissions === 'string') return fail(permissions);

  const workspace: RemoteWorkspace | LocalWorkspace | string = command.ssh
    ? await (
        await import('./remote-workspace.js')
      ).openRemoteWorkspace(command.ssh, command.workDir, command.addDirs)
    : await localWorkspace(command.workDir, command.addDirs);
  if (typeof workspace === 'string') return fail(workspace);

  // The SDK and the tools load only once the command line is known to be good, so mistakes are reported fast.
  const [{ createCliServer }, { AnsweringStdioTransport }] = await Promise.all([
    import('./cli-server.js'),
    import('@kimi-tools/mcp'),
  ]);
  const remote = workspace.fs ? workspace : undefined;
  const server = createCliServer({
    workDir: workspace.workDir,
    addDirs: workspace.addDirs,
    ...(remote ? { fs: remote.fs, host: remote.host } : {}),
    approval: command.approval,
    structuredContent: command.structuredContent,
    allowOutside: command.allowOutside,
    ...(permissions === undefined ? {} : { permissions }),
    // The store's default directory is keyed by the backend's identity: over SSH by the host too.
    ...(command.checkpoints ? { checkpoints: {} } : {}),
    onCheckpointError: (error) =>
      process.stderr.write(`kimi-tools-mcp: no checkpoint before this batch of calls: ${errorText(error)}\n`),
  });
  server.onerror = (error) => process.stderr.write(`kimi-tools-mcp: ${error.message}\n`);
  // Whole messages reach the transport, and one too large is answered and left out: the transport would end
  // the session on it (the server exited, every call in flight lost).
  const tooLarge = ({ bytes, id }: DroppedMessage): void => {
    const message = requestTooLargeMessage(bytes, MAX_REQUEST_BYTES);
    process.stderr.write(`kimi-tools-mcp: ${message}\n`);
    // -32600: JSON-RPC's Invalid Request (the SDK's ErrorCode is not loaded before the command line is checked).
    if (id !== undefined) void transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message } });
  };
  // A line the SDK's transport would drop unanswered (no JSON, "params": null...) is answered with a JSON-RPC error.
  const transport = new AnsweringStdioTransport(
    process.stdin.pipe(new WholeLines(MAX_REQUEST_BYTES, tooLarge)),
    process.stdout,
    { maxBufferSize: MAX_REQUEST_BYTES },
  );
  await server.connect(transport);
  // The client closing our stdin ends the session; pending calls finish, then the process exits (an SSH connection
  // would keep it running: it is closed too).
  process.stdin.once('end', () => void server.close().then(() => remote?.fs.close()));
}

/** The local work dir and `--add-dir` directories, made absolute and checked, or the first one's problem. */
async function localWorkspace(workDir: string, addDirs: readonly string[]): Promise<LocalWorkspace | string> {
  const absolute = path.resolve(workDir);
  const absoluteDirs = addDirs.map((dir) => path.resolve(dir));
  const problems = await Promise.all([
    directoryProblem(absolute, 'WORKDIR'),
    ...absoluteDirs.map((dir) => directoryProblem(dir, '--add-dir')),
  ]);
  return problems.find((text) => text !== undefined) ?? { workDir: absolute, addDirs: absoluteDirs };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `kimi-tools-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
