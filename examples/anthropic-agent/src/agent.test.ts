import { readFile } from 'node:fs/promises';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import { createFileTools } from '@kimi-tools/example-file-tools';
import {
  agentImageTexts,
  agentPictureBase64,
  agentScanImage,
  agentScanTexts,
  agentScenario,
  startReplayServer,
  test,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import recorded from './__fixtures__/messages.json' with { type: 'json' };
import { runAgent } from './agent.js';

const PROMPT = 'Make the answer 42, then tell me what the picture shows.';

describe('the messages agent, with the official client against recorded responses', () => {
  test('runs the tool uses and sends back exactly the tool_result blocks, is_error, the picture and the scanned page', async ({
    workspace,
    approval,
    onTestFinished,
  }) => {
    await workspace.writeAll(agentScenario.files);
    const server = await startReplayServer(recorded.map((body) => ({ body })));
    onTestFinished(() => server.close());
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });

    const answer = await runAgent({
      client,
      model: 'claude-sonnet-5',
      tools: createFileTools(workspace.workDir, { approval }),
      prompt: PROMPT,
    });

    expect(answer).toBe('The answer is 42 now, and the picture is a red square.');
    expect(await readFile(workspace.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(4).fill('POST /v1/messages'),
    );
    const bodies = server.requests.map((request) => request.body as MessageCreateParams);
    expect(
      bodies[0]?.tools?.map((tool) => 'input_schema' in tool && [tool.name, tool.input_schema.type]),
    ).toEqual([
      ['ReadFile', 'object'],
      ['WriteFile', 'object'],
      ['StrReplaceFile', 'object'],
      ['ApplyPatch', 'object'],
      ['Glob', 'object'],
      ['Grep', 'object'],
      ['ReadMediaFile', 'object'],
    ]);

    const [message, open, close] = agentImageTexts(workspace);
    const [scanMessage, scanOpen, scanPage, scanClose] = agentScanTexts(workspace);
    const assistant = (turn: number) => ({ role: 'assistant', content: recorded[turn]!.content });
    expect(bodies[0]?.messages).toEqual([{ role: 'user', content: PROMPT }]);
    expect(bodies[1]?.messages).toEqual([
      ...bodies[0]!.messages,
      assistant(0),
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01A9pXq7Rw3Lk2Jd8Fh5Gs1e',
            content: agentScenario.texts.read,
            is_error: false,
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01B4mTn6Vc8Zx1Qw9Er3Ty7u',
            content: [
              { type: 'text', text: message },
              { type: 'text', text: open },
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: agentPictureBase64 },
              },
              { type: 'text', text: close },
            ],
            is_error: false,
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01E6hGf3Jk9Lz2Xc5Vb8Nm4q',
            content: [
              { type: 'text', text: scanMessage },
              { type: 'text', text: scanOpen },
              { type: 'text', text: scanPage },
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/jpeg', data: agentScanImage.base64 },
              },
              { type: 'text', text: scanClose },
            ],
            is_error: false,
          },
        ],
      },
    ]);
    expect(bodies[2]?.messages).toEqual([
      ...bodies[1]!.messages,
      assistant(1),
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01C7kLp2Sd5Fg8Hj1Kl4Zx9c',
            content: agentScenario.texts.badEdit,
            is_error: true,
          },
        ],
      },
    ]);
    expect(bodies[3]?.messages).toEqual([
      ...bodies[2]!.messages,
      assistant(2),
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01D2vBn5Mq8We1Rt4Yu7Io0p',
            content: agentScenario.texts.edit,
            is_error: false,
          },
        ],
      },
    ]);
  });
});
