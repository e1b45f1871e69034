import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from './__fixtures__/mcp-session.js';
import { SERVED_TOOL_NAMES } from './__fixtures__/served-tools.js';

// The MCP Inspector's own command line (`mcp-inspector --cli`, published as @modelcontextprotocol/inspector-cli; the
// Inspector's 2.x line needs Node 22) drives the built binary over stdio, as a user checking the server would.

const INSPECTOR_DIR = path.dirname(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json'),
);
const INSPECTOR_CLI = path.join(INSPECTOR_DIR, 'build', 'cli.js');

const run = promisify(execFile);

/**
 * Runs one Inspector method against `kimi-tools-mcp --approval yolo WORKDIR` and parses the JSON it prints. The server's
 * checkpoints go to `stateDir` (its `XDG_STATE_HOME`), never to the user's.
 */
async function inspect<T>(workDir: string, stateDir: string, method: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [
      INSPECTOR_CLI,
      '--cli',
      '-e',
      `XDG_STATE_HOME=${stateDir}`,
      process.execPath,
      CLI_PATH,
      '--approval',
      'yolo',
      workDir,
      '--method',
      ...method,
    ],
    // The Inspector looks for its package.json at `../package.json` from the working directory, then imports it
    // from its own directory: run it from its `build` folder so both name the same file.
    { cwd: path.join(INSPECTOR_DIR, 'build'), timeout: 60_000 },
  );
  return JSON.parse(stdout) as T;
}

describe('the MCP Inspector CLI against kimi-tools-mcp', () => {
  let workspace: TempWorkspace;

  beforeAll(async () => {
    workspace = await createTempWorkspace();
    await workspace.write('notes.txt', 'alpha\nbeta\n');
  });

  afterAll(() => workspace.cleanup());

  it('lists the tools and calls them: a read, a write, and a failure', async () => {
    const stateDir = workspace.outside('state');
    const [listed, read, written, missing] = await Promise.all([
      inspect<ListToolsResult>(workspace.workDir, stateDir, ['tools/list']),
      inspect<CallToolResult>(workspace.workDir, stateDir, [
        'tools/call',
        '--tool-name',
        'ReadFile',
        '--tool-arg',
        'path=notes.txt',
      ]),
      inspect<CallToolResult>(workspace.workDir, stateDir, [
        'tools/call',
        '--tool-name',
        'WriteFile',
        '--tool-arg',
        'path=out/new.txt',
        'content=fresh',
      ]),
      inspect<CallToolResult>(workspace.workDir, stateDir, [
        'tools/call',
        '--tool-name',
        'ReadFile',
        '--tool-arg',
        'path=gone.txt',
      ]),
    ]);

    expect(listed.tools.map((tool) => tool.name)).toEqual(SERVED_TOOL_NAMES);
    expect(listed.tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });

    expect(read).toEqual({
      content: [
        {
          type: 'text',
          text: '2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.',
        },
        { type: 'text', text: '     1\talpha\n     2\tbeta\n' },
      ],
      isError: false,
    });

    expect(written.isError).toBe(false);
    expect(await fs.readFile(workspace.at('out/new.txt'), 'utf8')).toBe('fresh');
    // The write's batch took a checkpoint, in the state directory the server was given.
    expect(await fs.readdir(path.join(stateDir, 'kimi-tools', 'checkpoints'))).toHaveLength(1);

    expect(missing.isError).toBe(true);
    expect(missing.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^ERROR: `gone\.txt` does not exist\./),
    });
  });
});
