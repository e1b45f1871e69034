import fs from 'node:fs/promises';
import { rejectAllApproval } from '@kimi-tools/core';
import { toCallToolResult } from '@kimi-tools/mcp';
import { createTempWorkspace, pngBytes, type TempWorkspace } from '@kimi-tools/test-kit';
import { McpError, ErrorCode, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession, texts, type McpSession } from './__fixtures__/mcp-session.js';
import { createCheckpointTools } from './checkpoint-tools.js';
import { createFileTools } from './file-tools.js';
import { SERVED_TOOL_NAMES } from './__fixtures__/served-tools.js';

/** The hints each tool is listed with: what its declared access says it does to files, and none reaches further. */
const HINTS = {
  read: { readOnlyHint: true, openWorldHint: false },
  edit: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

describe('kimi-tools-mcp over stdio (yolo)', () => {
  let workspace: TempWorkspace;
  let session: McpSession;
  const png = Buffer.from(pngBytes(3, 2));

  beforeAll(async () => {
    workspace = await createTempWorkspace();
    await workspace.writeAll({
      'notes.txt': 'alpha\nbeta\ngamma\n',
      'src/main.ts': 'export const answer = 42;\n',
      'src/util.ts': 'export function helper() {\n  return "needle";\n}\n',
      'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
      'pixel.png': png,
    });
    session = await startSession(['--approval', 'yolo', '--structured-content', workspace.workDir]);
  });

  afterAll(async () => {
    await session?.close();
    await workspace.cleanup();
  });

  /** What the same tool returns in-process on the same workspace, mapped as the server maps it. */
  async function expected(name: string, args: Record<string, unknown>) {
    const runtime = workspace.runtime({ approval: rejectAllApproval() });
    const tools = createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } });
    const tool = tools.find((candidate) => candidate.name === name)!;
    return toCallToolResult(await tool.call(args), { structuredContent: true });
  }

  it('lists the eight file tools and the two checkpoint tools with their descriptions, JSON Schemas and hints', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(SERVED_TOOL_NAMES);
    const runtime = workspace.runtime({ approval: rejectAllApproval() });
    const locals = [
      ...createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in'] } }),
      ...createCheckpointTools(runtime),
    ];
    for (const local of locals) {
      const listed = tools.find((tool) => tool.name === local.name)!;
      expect(listed.description).toBe(local.description);
      expect(listed.inputSchema).toEqual(local.parameters);
      expect(listed.annotations).toEqual(HINTS[local.access!]);
    }
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual([
      'ReadFile',
      'Glob',
      'Grep',
      'ReadMediaFile',
      'ListCheckpoints',
    ]);
  });

  it('tells the client where the working directory is', () => {
    expect(session.client.getInstructions()).toContain(`The working directory is ${workspace.workDir};`);
    expect(session.client.getServerVersion()?.name).toBe('kimi-tools');
  });

  it('reads a file', async () => {
    const result = await session.call('ReadFile', { path: 'notes.txt' });
    expect(result).toEqual(await expected('ReadFile', { path: 'notes.txt' }));
    expect(result.isError).toBe(false);
    expect(texts(result)[1]).toContain('gamma');
    expect(result.structuredContent).toEqual({ brief: '', display: [] });
  });

  it('edits a file read first, keeping CRLF, and returns the diff as structured content', async () => {
    await session.call('ReadFile', { path: 'crlf.txt' });
    const result = await session.call('StrReplaceFile', {
      path: 'crlf.txt',
      edit: { old: 'two', new: 'TWO' },
    });
    expect(result.isError).toBe(false);
    expect(await fs.readFile(`${workspace.workDir}/crlf.txt`, 'utf8')).toBe('one\r\nTWO\r\nthree\r\n');
    const structured = result.structuredContent as { display: Array<{ type: string }> };
    expect(structured.display).toContainEqual({
      type: 'diff',
      path: `${workspace.workDir}/crlf.txt`,
      oldText: 'one\ntwo\nthree',
      newText: 'one\nTWO\nthree',
      oldStart: 1,
      newStart: 1,
      isSummary: false,
    });
  });

  it('refuses to edit a file not read in this session', async () => {
    const result = await session.call('StrReplaceFile', {
      path: 'src/main.ts',
      edit: { old: '42', new: '43' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ brief: 'File not read' });
    expect(await fs.readFile(`${workspace.workDir}/src/main.ts`, 'utf8')).toBe('export const answer = 42;\n');
  });

  it('writes a new file', async () => {
    const result = await session.call('WriteFile', { path: 'out/new.txt', content: 'fresh\n' });
    expect(result.isError).toBe(false);
    expect(await fs.readFile(`${workspace.workDir}/out/new.txt`, 'utf8')).toBe('fresh\n');
  });

  it('globs', async () => {
    const result = await session.call('Glob', { pattern: 'src/**/*.ts' });
    expect(result).toEqual(await expected('Glob', { pattern: 'src/**/*.ts' }));
    const output = texts(result).join('\n');
    expect(output).toContain('src/main.ts');
    expect(output).toContain('src/util.ts');
  });

  it('greps', async () => {
    const args = { pattern: 'needle', output_mode: 'content' };
    const result = await session.call('Grep', args);
    expect(result).toEqual(await expected('Grep', args));
    expect(texts(result).join('\n')).toContain('return "needle";');
  });

  it('reads an image as MCP image content between its path tags', async () => {
    const result = await session.call('ReadMediaFile', { path: 'pixel.png' });
    expect(result.isError).toBe(false);
    expect(texts(result)[0]).toContain('original size 3x2px');
    expect(result.content.slice(1, 4)).toEqual([
      { type: 'text', text: `<image path="${workspace.workDir}/pixel.png">` },
      { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: '</image>' },
    ]);
    expect(result.structuredContent).toMatchObject({
      extras: { kind: 'image', mime: 'image/png', width: 3 },
    });
  });

  it('returns tool errors as isError results with the message and the brief', async () => {
    const result = await session.call('ReadFile', { path: 'missing.txt' });
    expect(result).toEqual(await expected('ReadFile', { path: 'missing.txt' }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ brief: 'File not found' });
    expect(texts(result)[0]).toMatch(/^ERROR: `missing\.txt` does not exist\./);
  });

  it('stays inside its work dir by default: a file elsewhere on the machine is refused', async () => {
    const secret = await workspace.write(workspace.outside('secret.txt'), 'top secret\n');
    const read = await session.call('ReadFile', { path: secret });
    expect(read.isError).toBe(true);
    expect(texts(read)).toEqual([`ERROR: \`${secret}\` is outside the workspace.`]);
    const write = await session.call('WriteFile', { path: workspace.outside('new.txt'), content: 'x' });
    expect(write.isError).toBe(true);
    await expect(fs.stat(workspace.outside('new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('answers bad arguments with the validation error', async () => {
    const result = await session.call('ReadFile', { path: 5 });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/^ERROR: Error validating JSON arguments: /);
    expect(result.structuredContent).toEqual({
      brief: 'Invalid arguments',
      display: [{ type: 'brief', text: 'Invalid arguments' }],
    });
  });

  it('reads arguments null or left out as none, and answers arguments that are no object with a tool error', async () => {
    // The SDK's client types `arguments` as an object: send what other clients send as a raw request.
    const call = (params: Record<string, unknown>) =>
      session.client.request(
        { method: 'tools/call', params: { name: 'ReadFile', ...params } },
        CallToolResultSchema,
      );
    const invalid = (issues: string) => ({
      content: [{ type: 'text', text: `ERROR: Error validating JSON arguments: ${issues}` }],
      isError: true,
      structuredContent: {
        brief: 'Invalid arguments',
        display: [{ type: 'brief', text: 'Invalid arguments' }],
      },
    });
    expect(await call({})).toEqual(invalid('path: is required'));
    expect(await call({ arguments: null })).toEqual(invalid('path: is required'));
    const notObject = (received: string) =>
      invalid(`arguments: Invalid input: expected object, received ${received}`);
    expect(await call({ arguments: ['notes.txt'] })).toEqual(notObject('array'));
    expect(await call({ arguments: 'notes.txt' })).toEqual(notObject('string'));
    expect(await call({ arguments: 7 })).toEqual(notObject('number'));
    expect(texts(await call({ arguments: '{"path":"notes.txt"}' }))[1]).toContain('alpha');
  });

  it('survives an unknown tool and a malformed call, and keeps serving', async () => {
    const unknown = session.call('DeleteEverything', {});
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message:
        'MCP error -32602: Unknown tool: DeleteEverything. Available tools: ReadFile, WriteFile, StrReplaceFile, NotebookEdit, ApplyPatch, Glob, Grep, ReadMediaFile, ListCheckpoints, Rewind.',
    });
    const malformed = session.client.request(
      { method: 'tools/call', params: { name: 7, arguments: {} } },
      CallToolResultSchema,
    );
    await expect(malformed).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message:
        "MCP error -32602: tools/call names no tool: params.name must be a tool's name, a string. Available tools: ReadFile, WriteFile, StrReplaceFile, NotebookEdit, ApplyPatch, Glob, Grep, ReadMediaFile, ListCheckpoints, Rewind.",
    });

    const after = await session.call('ReadFile', { path: 'notes.txt' });
    expect(after.isError).toBe(false);
    expect(texts(after)[1]).toContain('alpha');
  });

  it('keeps stdout for the protocol: nothing unexpected on stderr either', () => {
    expect(session.stderr()).toBe('');
  });
});
