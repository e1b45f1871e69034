import { readFile } from 'node:fs/promises';
import {
  agentImageTexts,
  agentPictureBase64,
  agentScanImage,
  agentScanTexts,
  agentScenario,
} from '@kimi-tools/test-kit';
import { generateText, stepCountIs, type ToolSet } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { describe, expect, vi } from 'vitest';
import { agentTest as test } from './__fixtures__/agent-tools.js';
import { aiSdkTools } from './ai-sdk-tools.js';

// The adapter imports `ai`: in this file that is AI SDK 5, as in a project that has `ai@5` installed.
vi.mock('ai', () => import('ai-v5'));

type GenerateResult = Awaited<ReturnType<MockLanguageModelV2['doGenerate']>>;

const usage: GenerateResult['usage'] = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function toolCallStep(id: string, call: { name: string; input: unknown }): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: call.name, input: JSON.stringify(call.input) }],
    finishReason: 'tool-calls',
    usage,
    warnings: [],
  };
}

const { calls, texts } = agentScenario;

describe('aiSdkTools with AI SDK 5', () => {
  test('drives a multi-step generateText loop: read, failed edit, edit, image, scanned PDF', async ({
    files,
    tools,
  }) => {
    const model = new MockLanguageModelV2({
      doGenerate: [
        toolCallStep('call-read', calls.read),
        toolCallStep('call-bad-edit', calls.badEdit),
        toolCallStep('call-edit', calls.edit),
        toolCallStep('call-image', calls.image),
        toolCallStep('call-scan', calls.scan),
        { content: [{ type: 'text', text: 'Done.' }], finishReason: 'stop', usage, warnings: [] },
      ],
    });

    const result = await generateText({
      model,
      // Typed against the `ai` this repository builds with (6); a project on AI SDK 5 sees its own `Tool` type.
      tools: aiSdkTools(tools) as unknown as ToolSet,
      prompt: 'Make the answer 42, then look at the picture.',
      stopWhen: stepCountIs(10),
    });

    expect(result.text).toBe('Done.');
    // Each step's prompt ends with the results of the step before, as the model read them.
    const outputs = model.doGenerateCalls.slice(1).map((call) => {
      const last = call.prompt[call.prompt.length - 1];
      return last?.role === 'tool' ? last.content.map((part) => [part.toolCallId, part.output]) : last;
    });
    const [message, open, close] = agentImageTexts(files);
    const [scanMessage, scanOpen, scanPage, scanClose] = agentScanTexts(files);
    expect(outputs).toEqual([
      [['call-read', { type: 'text', value: texts.read }]],
      [['call-bad-edit', { type: 'error-text', value: texts.badEdit }]],
      [['call-edit', { type: 'text', value: texts.edit }]],
      [
        [
          'call-image',
          {
            type: 'content',
            value: [
              { type: 'text', text: message },
              { type: 'text', text: open },
              { type: 'media', data: agentPictureBase64, mediaType: 'image/png' },
              { type: 'text', text: close },
            ],
          },
        ],
      ],
      [
        [
          'call-scan',
          {
            type: 'content',
            value: [
              { type: 'text', text: scanMessage },
              { type: 'text', text: scanOpen },
              { type: 'text', text: scanPage },
              { type: 'media', data: agentScanImage.base64, mediaType: 'image/jpeg' },
              { type: 'text', text: scanClose },
            ],
          },
        ],
      ],
    ]);
    expect(await readFile(files.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);
  });
});
