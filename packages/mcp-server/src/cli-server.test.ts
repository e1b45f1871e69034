import fs from 'node:fs/promises';
import { it } from '@kimi-tools/test-kit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, vi } from 'vitest';
import { createCliServer, type CliServerSettings } from './cli-server.js';

const REJECTED_NO_FEEDBACK =
  'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.';

interface Connected {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  errors: Error[];
  asked: ElicitRequestFormParams[];
}

/**
 * The binary's server in process, with the SDK's client. `protocolVersion` makes the client ask for that version
 * (the SDK client always asks for the latest); `answer` is its approval dialog.
 */
async function connect(
  settings: Partial<CliServerSettings> & { workDir: string },
  options: {
    answer?: (form: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>;
    protocolVersion?: string;
  } = {},
): Promise<Connected> {
  const server = createCliServer({ addDirs: [], approval: 'elicit', structuredContent: false, ...settings });
  const errors: Error[] = [];
  server.onerror = (error) => errors.push(error);
  const asked: ElicitRequestFormParams[] = [];
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: {} } });
  const { answer } = options;
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const form = request.params as ElicitRequestFormParams;
    asked.push(form);
    return answer ? answer(form) : { action: 'accept', content: { decision: 'approve' } };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const version = options.protocolVersion;
  if (version) {
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message: JSONRPCMessage, sendOptions) => {
      const asksVersion = 'method' in message && message.method === 'initialize' && message.params;
      return send(
        asksVersion ? { ...message, params: { ...message.params, protocolVersion: version } } : message,
        sendOptions,
      );
    };
  }
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    errors,
    asked,
    call: async (name, args) =>
      (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult,
  };
}

function texts(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

describe('kimi-tools-mcp: confined to its directories by default (14.10)', () => {
  it('refuses to read or write outside the work dir and --add-dir directories', async ({ workspace }) => {
    const secret = await workspace.write(workspace.outside('secret.txt'), 'top secret\n');
    const shared = await workspace.write(workspace.outside('shared/notes.txt'), 'shared notes\n');
    const { call, asked } = await connect({
      workDir: workspace.workDir,
      addDirs: [workspace.outside('shared')],
    });

    const read = await call('ReadFile', { path: secret });
    expect(read.isError).toBe(true);
    expect(texts(read)).toEqual([`ERROR: \`${secret}\` is outside the workspace.`]);
    expect(JSON.stringify(read)).not.toContain('top secret');

    const created = workspace.outside('created.txt');
    const write = await call('WriteFile', { path: created, content: 'x' });
    expect(write.isError).toBe(true);
    await expect(fs.stat(created)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(asked).toEqual([]);

    const inside = await call('ReadFile', { path: shared });
    expect(inside.isError).toBe(false);
    expect(texts(inside)[1]).toContain('shared notes');
  });

  it('--allow-outside reads outside, and still asks before writing there', async ({ workspace }) => {
    const secret = await workspace.write(workspace.outside('secret.txt'), 'top secret\n');
    const { call, asked } = await connect({ workDir: workspace.workDir, allowOutside: true });
    const read = await call('ReadFile', { path: secret });
    expect(read.isError).toBe(false);
    expect(texts(read)[1]).toContain('top secret');
    const created = workspace.outside('created.txt');
    const write = await call('WriteFile', { path: created, content: 'x' });
    expect(write.isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(await fs.readFile(created, 'utf8')).toBe('x');
  });
});

/** A relative path outside the workspace, through `..` or through a link in it, as each tool takes it. */
function outsideCalls(target: string, readOnly: boolean): [string, Record<string, unknown>, string][] {
  const reads: [string, Record<string, unknown>, string][] = [
    ['ReadFile', { path: target }, 'read'],
    ['ReadMediaFile', { path: target }, 'read'],
  ];
  if (readOnly) return reads;
  return [
    ...reads,
    ['WriteFile', { path: target, content: 'x' }, 'write'],
    ['StrReplaceFile', { path: target, edit: { old: 'a', new: 'b' } }, 'edit'],
    ['NotebookEdit', { notebook_path: target, new_source: 'x', cell_id: 'cell-0' }, 'edit'],
  ];
}

describe('kimi-tools-mcp: a relative path outside gets the answer of its outside mode (issue 29.10)', () => {
  for (const allowOutside of [false, true]) {
    it(
      allowOutside
        ? 'with --allow-outside: asks for the absolute path'
        : 'by default: outside the workspace, relative or not',
      async ({ workspace }) => {
        await workspace.write(workspace.outside('outside.txt'), 'a\n');
        await workspace.symlink('linked', workspace.outsideDir);
        await workspace.symlink('etc-link', '/etc');
        const { call, asked } = await connect({ workDir: workspace.workDir, allowOutside });
        const answers: string[] = [];
        const expected: string[] = [];
        for (const [target, readOnly] of [
          ['../outside/outside.txt', false],
          ['linked/outside.txt', false],
          ['etc-link/passwd', true],
        ] as const) {
          for (const [tool, args, verb] of outsideCalls(target, readOnly)) {
            answers.push(`${tool}: ${texts(await call(tool, args)).join('\n')}`);
            expected.push(
              allowOutside
                ? `${tool}: ERROR: \`${target}\` is not an absolute path. You must provide an absolute path to ${verb} a file outside the working directory.`
                : `${tool}: ERROR: \`${target}\` is outside the workspace.`,
            );
          }
          // The searches never look outside, whatever the mode.
          const search = `\`${target}\` is outside the workspace. You can only search within the working directory and additional directories.`;
          answers.push(`Glob: ${texts(await call('Glob', { pattern: '*', directory: target })).join('\n')}`);
          answers.push(`Grep: ${texts(await call('Grep', { pattern: 'a', path: target })).join('\n')}`);
          expected.push(`Glob: ERROR: ${search}`, `Grep: ERROR: ${search}`);
        }
        expect(answers).toEqual(expected);
        expect(asked).toEqual([]);
        expect(await fs.readFile(workspace.outside('outside.txt'), 'utf8')).toBe('a\n');
      },
    );
  }
});

describe('kimi-tools-mcp: read-only mode (14.11)', () => {
  it('lists only the read tools and says so in its instructions', async ({ workspace }) => {
    const { client } = await connect({ workDir: workspace.workDir, approval: 'reject' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ReadFile', 'Glob', 'Grep', 'ReadMediaFile']);
    expect(client.getInstructions()).toContain(
      'This server is read-only (--approval reject): it offers no tool that writes or edits files.',
    );
    const writers = await connect({ workDir: workspace.workDir, approval: 'yolo' });
    expect((await writers.client.listTools()).tools.map((tool) => tool.name)).toContain('WriteFile');
    expect(writers.client.getInstructions()).not.toContain('read-only');
  });

  it('a malformed approval answer rejects without being shown as the user feedback', async ({
    workspace,
  }) => {
    const file = await workspace.write('doc.txt', 'one\n');
    const { call, errors } = await connect(
      { workDir: workspace.workDir },
      {
        answer: () => ({
          action: 'accept',
          content: { decision: 'sure, ignore the rules', feedback: 'rm -rf /' },
        }),
      },
    );
    await call('ReadFile', { path: 'doc.txt' });
    const edit = await call('StrReplaceFile', { path: 'doc.txt', edit: { old: 'one', new: 'two' } });
    expect(edit.isError).toBe(true);
    expect(texts(edit)).toEqual([`ERROR: ${REJECTED_NO_FEEDBACK}`]);
    expect(await fs.readFile(file, 'utf8')).toBe('one\n');
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(
        /^The approval form got no valid answer, so the change was rejected: MCP error -32602: /,
      ),
    ]);
  });
});

describe('kimi-tools-mcp: a call cancelled while its approval form is open', () => {
  it('is reported as the cancel, not as a form without a valid answer, and writes nothing', async ({
    workspace,
  }) => {
    const file = await workspace.write('doc.txt', 'one\n');
    let formShown!: () => void;
    const shown = new Promise<void>((resolve) => (formShown = resolve));
    const { client, call, errors } = await connect(
      { workDir: workspace.workDir },
      {
        answer: () => {
          formShown();
          return new Promise<ElicitResult>(() => {});
        },
      },
    );
    await call('ReadFile', { path: 'doc.txt' });
    const cancel = new AbortController();
    const edit = client.callTool(
      { name: 'StrReplaceFile', arguments: { path: 'doc.txt', edit: { old: 'one', new: 'two' } } },
      CallToolResultSchema,
      { signal: cancel.signal },
    );
    await shown;
    cancel.abort('stopped by the user');
    await expect(edit).rejects.toThrow('stopped by the user');
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors.map((error) => error.message)).toEqual([
      'The tool call was cancelled while its approval form was open: the form was withdrawn, and the change was not written.',
    ]);
    // A call after it is served: the cancelled one has settled, and left the file as it was.
    await call('ReadFile', { path: 'doc.txt' });
    expect(await fs.readFile(file, 'utf8')).toBe('one\n');
  });
});

describe('kimi-tools-mcp: the approval form follows the negotiated protocol version (14.12)', () => {
  const decisions = ['approve', 'approve_for_session', 'reject'];

  it('2025-11-25: a titled enum as oneOf/const', async ({ workspace }) => {
    const { call, asked } = await connect({ workDir: workspace.workDir });
    await call('WriteFile', { path: 'new.txt', content: 'x' });
    const decision = asked[0]!.requestedSchema.properties.decision as Record<string, unknown>;
    expect(decision).not.toHaveProperty('enum');
    expect((decision.oneOf as { const: string }[]).map((option) => option.const)).toEqual(decisions);
  });

  it('2025-06-18: enum with enumNames', async ({ workspace }) => {
    const { call, asked } = await connect({ workDir: workspace.workDir }, { protocolVersion: '2025-06-18' });
    const result = await call('WriteFile', { path: 'new.txt', content: 'x' });
    expect(result.isError).toBe(false);
    const decision = asked[0]!.requestedSchema.properties.decision as Record<string, unknown>;
    expect(decision).not.toHaveProperty('oneOf');
    expect(decision.enum).toEqual(decisions);
    expect(decision.enumNames).toEqual([
      'Approve once',
      'Approve every "edit file" for this session',
      'Reject',
    ]);
  });
});

describe('kimi-tools-mcp: shaped approvals follow the negotiated protocol version', () => {
  const TWELVE = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);

  it('2025-06-18: no hunk multi-select, and the text field starts empty; left empty, the proposal is written', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', `${TWELVE.join('\n')}\n`);
    const { call, asked } = await connect(
      { workDir: workspace.workDir },
      {
        protocolVersion: '2025-06-18',
        answer: () => ({ action: 'accept', content: { decision: 'approve', content: '' } }),
      },
    );
    await call('ReadFile', { path: 'a.txt' });
    const edit = await call('StrReplaceFile', {
      path: 'a.txt',
      edit: [
        { old: 'line 1\n', new: 'LINE 1\n' },
        { old: 'line 12', new: 'LINE 12' },
      ],
    });
    expect(edit.isError).toBe(false);
    const properties = asked[0]!.requestedSchema.properties;
    expect(Object.keys(properties)).toEqual(['decision', 'feedback', 'content']);
    expect(properties.content).not.toHaveProperty('default');
    expect(await fs.readFile(file, 'utf8')).toBe(
      `${['LINE 1', ...TWELVE.slice(1, 11), 'LINE 12'].join('\n')}\n`,
    );
  });
});

describe('kimi-tools-mcp: an unknown tool (14.13)', () => {
  it('is reported once, not with the error code twice', async ({ workspace }) => {
    const { call } = await connect({ workDir: workspace.workDir, approval: 'reject' });
    const unknown = call('WriteFile', { path: 'x.txt', content: 'x' });
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message:
        'MCP error -32602: Unknown tool: WriteFile. Available tools: ReadFile, Glob, Grep, ReadMediaFile.',
    });
  });
});

describe('kimi-tools-mcp: checkpoints', () => {
  it('offers ListCheckpoints and Rewind, with their hints, and tells the model; read-only mode offers neither', async ({
    workspace,
  }) => {
    const checkpoints = { dir: workspace.outside('store') };
    const { client } = await connect({ workDir: workspace.workDir, approval: 'yolo', checkpoints });
    const { tools } = await client.listTools();
    expect(tools.slice(-2)).toEqual([
      expect.objectContaining({
        name: 'ListCheckpoints',
        annotations: { readOnlyHint: true, openWorldHint: false },
      }),
      expect.objectContaining({
        name: 'Rewind',
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      }),
    ]);
    expect(client.getInstructions()).toContain(
      'A checkpoint of the working directory is taken before each batch of tool calls that changes files: ' +
        'ListCheckpoints lists them and Rewind takes files back to one.',
    );

    const readOnly = await connect({ workDir: workspace.workDir, approval: 'reject', checkpoints });
    expect((await readOnly.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'ReadFile',
      'Glob',
      'Grep',
      'ReadMediaFile',
    ]);
    expect(readOnly.client.getInstructions()).not.toContain('checkpoint');
  });
});
