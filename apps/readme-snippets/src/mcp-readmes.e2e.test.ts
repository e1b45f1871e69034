import { writeFile } from 'node:fs/promises';
import { it, type TempWorkspace } from '@kimi-tools/test-kit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect } from 'vitest';
import { readmeBlocks, snippetProgram } from './run-snippet.js';

/**
 * Runs a snippet that serves tools over stdio, as an MCP client would start it, and calls ReadFile through it: the
 * tools it lists, the text of the call's result, and that of a read of a file outside the workspace.
 */
async function serveAndRead(workspace: TempWorkspace, code: string) {
  await workspace.write('hello.txt', 'hello\n');
  const outside = await writeFileOutside(workspace, 'secret.txt', 'not for the client\n');
  const program = await snippetProgram(workspace, code);
  let stderr = '';
  const transport = new StdioClientTransport({
    command: program.command,
    args: program.args,
    cwd: workspace.workDir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'readme-snippets', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'ReadFile', arguments: { path: 'hello.txt' } });
    const texts = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '');
    const beyond = await client.callTool({ name: 'ReadFile', arguments: { path: outside } });
    const outsideTexts = (beyond.content as Array<{ text?: string }>).map((part) => part.text ?? '');
    return { tools: tools.map((tool) => tool.name), texts, outsideTexts, stderr: () => stderr };
  } finally {
    await client.close();
  }
}

/** Writes a file in the workspace's directory outside its work dir, and gives its absolute path. */
async function writeFileOutside(workspace: TempWorkspace, name: string, content: string): Promise<string> {
  const file = workspace.outside(name);
  await writeFile(file, content);
  return file;
}

/** What ReadFile answers, over a server confined to its work dir, for a file outside it. */
const outsideAnswer = (file: string) => [`ERROR: \`${file}\` is outside the workspace.`];

describe('packages/mcp', async () => {
  const [serveOne, serveFileTools] = await readmeBlocks('packages/mcp/README.md');
  it('serving one tool over stdio runs, and the tool answers', async ({ workspace }) => {
    const served = await serveAndRead(workspace, serveOne!.code);
    expect(served.tools).toEqual(['ReadFile']);
    expect(served.texts.join('\n')).toContain('     1\thello');
    expect(served.outsideTexts).toEqual(outsideAnswer(workspace.outside('secret.txt')));
    expect(served.stderr()).toBe('');
  });

  it('serving the file tools over stdio runs, and ReadFile answers', async ({ workspace }) => {
    const served = await serveAndRead(workspace, serveFileTools!.code);
    expect(served.tools).toEqual(expect.arrayContaining(['ReadFile', 'WriteFile', 'Grep', 'ReadMediaFile']));
    expect(served.texts.join('\n')).toContain('     1\thello');
    expect(served.outsideTexts).toEqual(outsideAnswer(workspace.outside('secret.txt')));
    expect(served.stderr()).toBe('');
  });
});

describe('packages/mcp-server', async () => {
  const [programmaticApi] = await readmeBlocks('packages/mcp-server/README.md');
  it('the programmatic API snippet serves the file tools over stdio', async ({ workspace }) => {
    const served = await serveAndRead(workspace, programmaticApi!.code);
    expect(served.tools).toEqual(expect.arrayContaining(['ReadFile', 'WriteFile', 'Grep', 'ReadMediaFile']));
    expect(served.texts.join('\n')).toContain('     1\thello');
    expect(served.outsideTexts).toEqual(outsideAnswer(workspace.outside('secret.txt')));
    expect(served.stderr()).toBe('');
  });
});
