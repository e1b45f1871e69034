import { readFile } from 'node:fs/promises';
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
import OpenAI from 'openai';
import type { ResponseCreateParams, ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect } from 'vitest';
import recorded from './__fixtures__/responses.json' with { type: 'json' };
import { runResponsesAgent } from './responses-agent.js';

const PROMPT = 'Make the answer 42, then tell me what the picture shows.';

describe('the responses agent, with the official client against recorded responses', () => {
  test('runs the function calls and sends back exactly their outputs, the picture and the scanned page inside', async ({
    workspace,
    approval,
    onTestFinished,
  }) => {
    await workspace.writeAll(agentScenario.files);
    const server = await startReplayServer(recorded.map((body) => ({ body })));
    onTestFinished(() => server.close());
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });

    const answer = await runResponsesAgent({
      client,
      model: 'gpt-5',
      tools: createFileTools(workspace.workDir, { approval }),
      prompt: PROMPT,
    });

    expect(answer).toBe('The answer is 42 now, and the picture is a red square.');
    expect(await readFile(workspace.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(4).fill('POST /v1/responses'),
    );
    const inputs = server.requests.map(
      (request) => (request.body as ResponseCreateParams).input as ResponseInputItem[],
    );
    const tools = (server.requests[0]?.body as ResponseCreateParams).tools ?? [];
    expect(tools.map((tool) => tool.type === 'function' && [tool.name, tool.strict])).toEqual([
      ['ReadFile', false],
      ['WriteFile', false],
      ['StrReplaceFile', false],
      ['ApplyPatch', false],
      ['Glob', false],
      ['Grep', false],
      ['ReadMediaFile', false],
    ]);

    const [message, open, close] = agentImageTexts(workspace);
    const [scanMessage, scanOpen, scanPage, scanClose] = agentScanTexts(workspace);
    expect(inputs[0]).toEqual([{ role: 'user', content: PROMPT }]);
    expect(inputs[1]).toEqual([
      ...inputs[0]!,
      ...recorded[0]!.output,
      { type: 'function_call_output', call_id: 'call_Qm1uR8ReadA', output: agentScenario.texts.read },
      {
        type: 'function_call_output',
        call_id: 'call_Vx3pL0Image',
        output: [
          { type: 'input_text', text: message },
          { type: 'input_text', text: open },
          { type: 'input_image', image_url: `data:image/png;base64,${agentPictureBase64}`, detail: 'auto' },
          { type: 'input_text', text: close },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_Pf8nW3ScanB',
        output: [
          { type: 'input_text', text: scanMessage },
          { type: 'input_text', text: scanOpen },
          { type: 'input_text', text: scanPage },
          { type: 'input_image', image_url: agentScanImage.dataUrl, detail: 'auto' },
          { type: 'input_text', text: scanClose },
        ],
      },
    ]);
    expect(inputs[2]).toEqual([
      ...inputs[1]!,
      ...recorded[1]!.output,
      { type: 'function_call_output', call_id: 'call_Hd7sK2BadEd', output: agentScenario.texts.badEdit },
    ]);
    expect(inputs[3]).toEqual([
      ...inputs[2]!,
      ...recorded[2]!.output,
      { type: 'function_call_output', call_id: 'call_Tn5wJ9EditA', output: agentScenario.texts.edit },
    ]);
  });
});
