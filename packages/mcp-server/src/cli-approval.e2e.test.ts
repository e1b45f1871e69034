import fs from 'node:fs/promises';
import { test } from '@kimi-tools/test-kit';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { startSession, texts, type ElicitHandler, type McpSession } from './__fixtures__/mcp-session.js';
import { CLI_NO_ELICITATION_FEEDBACK } from './approval-feedback.js';
import { READ_ONLY_INSTRUCTIONS } from './errors.js';

const ORIGINAL = 'first line\nsecond line\nthird line\n';
const REJECTED_NO_FEEDBACK =
  'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.';

/**
 * The kit's test, with `setUp`: writes `doc.txt` in the workspace and starts the server on it with `args`; the
 * session is closed after the test, before the workspace is removed.
 */
const it = test.extend('setUp', ({ workspace }, { onCleanup }) => {
  const sessions: McpSession[] = [];
  onCleanup(async () => {
    for (const session of sessions) await session.close();
  });
  return async (args: string[], elicit?: ElicitHandler): Promise<{ session: McpSession; file: string }> => {
    const file = await workspace.write('doc.txt', ORIGINAL);
    const session = await startSession([...args, workspace.workDir], elicit);
    sessions.push(session);
    return { session, file };
  };
});

describe('kimi-tools-mcp approvals', () => {
  async function editSecondLine(session: McpSession) {
    await session.call('ReadFile', { path: 'doc.txt' });
    return session.call('StrReplaceFile', { path: 'doc.txt', edit: { old: 'second', new: 'SECOND' } });
  }

  it('--approval reject offers no write tool, so files stay untouched', async ({ setUp }) => {
    const { session, file } = await setUp(['--approval', 'reject']);
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ReadFile', 'Glob', 'Grep', 'ReadMediaFile']);
    expect(session.client.getInstructions()).toContain(READ_ONLY_INSTRUCTIONS);
    await expect(editSecondLine(session)).rejects.toMatchObject({
      message:
        'MCP error -32602: Unknown tool: StrReplaceFile. Available tools: ReadFile, Glob, Grep, ReadMediaFile.',
    });
    await expect(session.call('WriteFile', { path: 'created.txt', content: 'x' })).rejects.toMatchObject({
      code: -32602,
    });
    expect(await fs.readFile(file, 'utf8')).toBe(ORIGINAL);
    await expect(fs.stat(file.replace('doc.txt', 'created.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('elicit: asks with the description and the diff, and writes when the user approves', async ({
    setUp,
  }) => {
    const asked: ElicitRequestFormParams[] = [];
    const { session, file } = await setUp(['--approval', 'elicit'], (request) => {
      asked.push(request as ElicitRequestFormParams);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    const edit = await editSecondLine(session);
    expect(edit.isError).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe('first line\nSECOND line\nthird line\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe(
      [
        `StrReplaceFile wants to edit file: Edit file \`${file}\``,
        '',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,3 +1,3 @@',
        ' first line',
        '-second line',
        '+SECOND line',
        ' third line',
      ].join('\n'),
    );
    expect(asked[0]!.requestedSchema.required).toEqual(['decision']);
    // One hunk of one small file: no hunk choice, and the proposal as text to edit.
    expect(Object.keys(asked[0]!.requestedSchema.properties)).toEqual(['decision', 'feedback', 'content']);
  });

  it('elicit: "approve for session" stops asking for that action', async ({ setUp }) => {
    let asked = 0;
    const { session, file } = await setUp([], () => {
      asked++;
      return { action: 'accept', content: { decision: 'approve_for_session' } };
    });
    expect((await editSecondLine(session)).isError).toBe(false);
    const second = await session.call('StrReplaceFile', {
      path: 'doc.txt',
      edit: { old: 'third', new: 'THIRD' },
    });
    expect(second.isError).toBe(false);
    expect(asked).toBe(1);
    expect(await fs.readFile(file, 'utf8')).toBe('first line\nSECOND line\nTHIRD line\n');
  });

  it('elicit: the user keeps only some hunks, chosen in a multi-select', async ({ setUp, workspace }) => {
    const lines = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
    const asked: ElicitRequestFormParams[] = [];
    const { session } = await setUp([], (request) => {
      asked.push(request as ElicitRequestFormParams);
      return { action: 'accept', content: { decision: 'approve', hunks: ['h2'], feedback: 'not the first' } };
    });
    const file = await workspace.write('long.txt', `${lines.join('\r\n')}\r\n`);
    await session.call('ReadFile', { path: 'long.txt' });
    const edit = await session.call('StrReplaceFile', {
      path: 'long.txt',
      edit: [
        { old: 'line 1\n', new: 'LINE 1\n' },
        { old: 'line 12', new: 'LINE 12' },
      ],
    });
    expect(asked[0]!.requestedSchema.properties.hunks).toEqual({
      type: 'array',
      title: 'Hunks to write',
      description:
        'With "Approve once": the hunks of the change to write; those left out are not written. All are selected.',
      items: {
        anyOf: [
          { const: 'h1', title: `h1: ${file}, line 1` },
          { const: 'h2', title: `h2: ${file}, line 9` },
        ],
      },
      default: ['h1', 'h2'],
    });
    expect(edit.isError).toBe(false);
    expect(texts(edit)[0]).toBe(
      [
        'File successfully edited. Matched 2 edit(s) with 2 total replacement(s); only part of the change was written. Edit 1 matched after normalising line endings.',
        'The user approved only part of this change: 1 of 2 hunks was written. The rejected hunks below were not written; the file keeps those lines as they were. User feedback: not the first',
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -1,4 +1,4 @@',
        '-line 1',
        '+LINE 1',
        ' line 2',
        ' line 3',
        ' line 4',
      ].join('\n'),
    );
    expect(await fs.readFile(file, 'utf8')).toBe(`${[...lines.slice(0, 11), 'LINE 12'].join('\r\n')}\r\n`);
  });

  it("elicit: the user's version typed in the form is written, and the model told how it differs", async ({
    setUp,
  }) => {
    const asked: ElicitRequestFormParams[] = [];
    const { session, file } = await setUp([], (request) => {
      asked.push(request as ElicitRequestFormParams);
      return {
        action: 'accept',
        content: { decision: 'approve', content: 'first line\nSecond line, as I want it\nthird line\n' },
      };
    });
    const edit = await editSecondLine(session);
    expect(asked[0]!.requestedSchema.properties.content).toMatchObject({
      type: 'string',
      default: 'first line\nSECOND line\nthird line\n',
    });
    expect(Object.keys(asked[0]!.requestedSchema.properties)).toEqual(['decision', 'feedback', 'content']);
    expect(await fs.readFile(file, 'utf8')).toBe('first line\nSecond line, as I want it\nthird line\n');
    expect(texts(edit)[0]!.split('\n').slice(1)).toEqual([
      "The user edited your proposal before accepting it, so what was written differs from what you sent. Build on the user's version and do not undo the user's edits.",
      'From your proposal to what was written:',
      `--- ${file}`,
      `+++ ${file}`,
      '@@ -1,3 +1,3 @@',
      ' first line',
      '-SECOND line',
      '+Second line, as I want it',
      ' third line',
    ]);
  });

  it('elicit: a declined form rejects the change and writes nothing', async ({ setUp }) => {
    const { session, file } = await setUp(['--approval=elicit', '--structured-content'], () => ({
      action: 'decline',
    }));
    const edit = await editSecondLine(session);
    expect(edit.isError).toBe(true);
    expect(texts(edit)).toEqual([`ERROR: ${REJECTED_NO_FEEDBACK}`]);
    expect(edit.structuredContent).toMatchObject({ brief: 'Rejected by user' });
    expect(await fs.readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it('elicit: a rejection with feedback passes the feedback to the model', async ({ setUp }) => {
    const { session, file } = await setUp(['--structured-content'], () => ({
      action: 'accept',
      content: { decision: 'reject', feedback: '  keep it lowercase  ' },
    }));
    const edit = await editSecondLine(session);
    expect(texts(edit)).toEqual([
      'ERROR: The tool call is rejected by the user. User feedback: keep it lowercase',
    ]);
    expect(edit.structuredContent).toMatchObject({ brief: 'Rejected: keep it lowercase' });
    expect(await fs.readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it('elicit with a client that cannot elicit rejects, explaining how to allow changes', async ({
    setUp,
  }) => {
    const { session, file } = await setUp(['--approval', 'elicit']);
    const edit = await editSecondLine(session);
    expect(edit.isError).toBe(true);
    expect(texts(edit)).toEqual([
      `ERROR: The tool call is rejected by the user. User feedback: ${CLI_NO_ELICITATION_FEEDBACK}`,
    ]);
    expect(CLI_NO_ELICITATION_FEEDBACK).toContain('--approval yolo');
    expect(await fs.readFile(file, 'utf8')).toBe(ORIGINAL);
  });
});
