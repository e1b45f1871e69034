import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from './__fixtures__/mcp-session.js';
import { USAGE } from './cli-args.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function usageError(message: string): string {
  return `kimi-tools-mcp: ${message}\nRun kimi-tools-mcp --help for usage.\n`;
}

describe('kimi-tools-mcp command line', () => {
  let workspace: TempWorkspace;
  beforeAll(async () => {
    workspace = await createTempWorkspace();
    await workspace.writeAll({ 'file.txt': 'x' });
  });
  afterAll(async () => {
    await workspace.cleanup();
  });

  it('prints the usage on stderr for --help', async () => {
    expect(await runCli(['--help'])).toEqual({ code: 0, stdout: '', stderr: `${USAGE}\n` });
  });

  it.each([
    { args: [], message: 'WORKDIR is missing.' },
    { args: ['--verbose', '.'], message: 'Unknown option --verbose.' },
    {
      args: ['--approval', 'maybe', '.'],
      message: 'Unknown approval mode "maybe": use one of elicit, yolo, reject.',
    },
    { args: ['.', '--add-dir'], message: '--add-dir needs a value.' },
    { args: ['a', 'b'], message: 'Expected one WORKDIR, got 2: a b.' },
    {
      args: ['--approval', 'yolo', ''],
      message: 'WORKDIR is empty: give the path of the project directory.',
    },
  ])('exits 2 on usage errors: $args', async ({ args, message }) => {
    expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr: usageError(message) });
  });

  it('exits 2 when WORKDIR does not exist or is a file', async () => {
    const missing = path.join(workspace.workDir, 'missing');
    expect(await runCli([missing])).toEqual({
      code: 2,
      stdout: '',
      stderr: usageError(`WORKDIR ${missing} does not exist.`),
    });
    const file = path.join(workspace.workDir, 'file.txt');
    expect(await runCli([file])).toEqual({
      code: 2,
      stdout: '',
      stderr: usageError(`WORKDIR ${file} is not a directory.`),
    });
  });

  it('writes only JSON-RPC to stdout, answers a garbage line, and ends when stdin closes', async () => {
    const child = spawn(process.execPath, [CLI_PATH, workspace.workDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    child.stdin.write(`this is not json\n${JSON.stringify(initialize)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.end(`${JSON.stringify(listTools)}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(0);
    const messages = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number | null; result: Record<string, unknown> });
    expect(messages.map((message) => message.id)).toEqual([null, 1, 2]);
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32700,
        message:
          'The line is not JSON (Unexpected token \'h\', "this is not json" is not valid JSON): each line must be one JSON-RPC message, a JSON object.',
      },
    });
    expect(messages[1]!.result.serverInfo).toMatchObject({ name: 'kimi-tools' });
    expect((messages[2]!.result.tools as unknown[]).length).toBe(10);
  });

  it('exits 2 when the --permissions file cannot be read or holds an invalid rule', async () => {
    const missing = path.join(workspace.root, 'no-rules');
    expect(await runCli(['--permissions', missing, workspace.workDir])).toEqual({
      code: 2,
      stdout: '',
      stderr: usageError(
        `--permissions ${missing} cannot be read: ENOENT: no such file or directory, open '${missing}'`,
      ),
    });
    const rules = await workspace.write(
      path.join(workspace.root, 'rules'),
      '# rules\nallow Edit(src/**)\ndeny Edit(../secrets/**)\n',
    );
    expect(await runCli(['--permissions', rules, workspace.workDir])).toEqual({
      code: 2,
      stdout: '',
      stderr: usageError(
        `--permissions ${rules}: line 3: invalid permission rule \`deny Edit(../secrets/**)\`: the glob \`../secrets/**\` has a . or .. segment: write it relative to the workspace without them, or as an absolute glob.`,
      ),
    });
  });

  it('exits 2 when an --add-dir is unusable', async () => {
    const missing = path.join(workspace.workDir, 'nope');
    expect(await runCli(['--add-dir', missing, workspace.workDir])).toEqual({
      code: 2,
      stdout: '',
      stderr: usageError(`--add-dir ${missing} does not exist.`),
    });
  });
});
