import { it, pngBytes } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { readmeBlocks, runSnippet } from './run-snippet.js';

const [usage, helpers, chatCompletions, anthropicMessages, aiSdk] =
  await readmeBlocks('packages/media/README.md');

/** The value printed last by a snippet that ran cleanly. */
async function printed(run: ReturnType<typeof runSnippet>): Promise<unknown> {
  const done = await run;
  expect(done.stderr).toBe('');
  expect(done.exitCode).toBe(0);
  return JSON.parse(done.stdout.trim().split('\n').at(-1) ?? '');
}

const IMAGE = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

describe('packages/media', () => {
  it('the Usage runs and answers what its comments say', async ({ workspace }) => {
    const image = await workspace.write('docs/screenshot.png', pngBytes(4, 2));
    const result = (await printed(
      runSnippet(workspace, usage!.code, { after: 'console.log(JSON.stringify(result));' }),
    )) as { output: unknown; message: string };
    expect(result.output).toEqual([
      { type: 'text', text: `<image path="${image}">` },
      { type: 'image_url', url: expect.stringMatching(IMAGE) },
      { type: 'text', text: '</image>' },
    ]);
    expect(result.message.startsWith(`Loaded image file \`${image}\` (image/png, `)).toBe(true);
  });

  // The snippets that hand the output to a model API go on from the helpers.
  it('the chat completions snippet answers a call with a tool message and the image in a user message', async ({
    workspace,
  }) => {
    const image = await workspace.write('shot.png', pngBytes());
    const call = {
      id: 'call_1',
      type: 'function',
      function: { name: 'ReadMediaFile', arguments: '{"path":"shot.png"}' },
    };
    const messages = await printed(
      runSnippet(workspace, `${helpers!.code}\n${chatCompletions!.code}`, {
        after: `console.log(JSON.stringify(await answerReadMedia(${JSON.stringify(call)})));`,
      }),
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringMatching(/^Loaded image file/) },
      {
        role: 'user',
        content: [
          { type: 'text', text: `<image path="${image}">` },
          { type: 'image_url', image_url: { url: expect.stringMatching(IMAGE) } },
          { type: 'text', text: '</image>' },
        ],
      },
    ]);
  });

  it('the Anthropic snippet answers a tool use with a tool_result holding an image block', async ({
    workspace,
  }) => {
    await workspace.write('shot.png', pngBytes());
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'ReadMediaFile', input: { path: 'shot.png' } };
    const message = (await printed(
      runSnippet(workspace, `${helpers!.code}\n${anthropicMessages!.code}`, {
        after: `console.log(JSON.stringify(await answerReadMedia(${JSON.stringify(toolUse)})));`,
      }),
    )) as {
      role: string;
      content: Array<{ type: string; tool_use_id: string; content: unknown[]; is_error: boolean }>;
    };
    expect(message.role).toBe('user');
    expect(message.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: false,
    });
    expect(message.content[0]!.content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png' },
    });
  });

  it('the AI SDK snippet runs the tool and turns its parts into model content', async ({ workspace }) => {
    await workspace.write('shot.png', pngBytes());
    const output = (await printed(
      runSnippet(workspace, `${helpers!.code}\n${aiSdk!.code}`, {
        after: [
          "const result = await readMediaFile.execute!({ path: 'shot.png' }, { toolCallId: '1', messages: [] });",
          'console.log(JSON.stringify(await readMediaFile.toModelOutput!({ toolCallId: "1", input: {}, output: result })));',
        ].join('\n'),
      }),
    )) as { type: string; value: Array<{ type: string }> };
    expect(output.type).toBe('content');
    expect(output.value.map((part) => part.type)).toEqual(['text', 'image-data', 'text']);
  });
});
