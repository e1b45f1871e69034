import { readFile } from 'node:fs/promises';
import type { ToolReturnValue } from '@kimi-tools/core';
import {
  agentImageTexts,
  agentPictureBase64,
  agentScanImage,
  agentScanTexts,
  agentScenario,
} from '@kimi-tools/test-kit';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { agentTest as test } from './__fixtures__/agent-tools.js';
import { aiSdkTools } from './ai-sdk-tools.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCallStep(id: string, call: { name: string; input: unknown }): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: call.name, input: JSON.stringify(call.input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

function textStep(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** The tool-result parts of the last message of the prompt the model got at step `step`. */
function toolResultsSeenAt(model: MockLanguageModelV3, step: number): unknown[] {
  const prompt = model.doGenerateCalls[step]?.prompt ?? [];
  const last = prompt[prompt.length - 1];
  expect(last?.role).toBe('tool');
  return last?.role === 'tool' ? last.content : [];
}

const { calls, texts } = agentScenario;

describe('aiSdkTools with AI SDK 6', () => {
  test('drives a multi-step generateText loop: read, failed edit, edit, image, scanned PDF', async ({
    files,
    tools,
  }) => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallStep('call-read', calls.read),
        toolCallStep('call-bad-edit', calls.badEdit),
        toolCallStep('call-edit', calls.edit),
        toolCallStep('call-image', calls.image),
        toolCallStep('call-scan', calls.scan),
        textStep('Done.'),
      ],
    });

    const result = await generateText({
      model,
      tools: aiSdkTools(tools),
      prompt: 'Make the answer 42, then look at the picture.',
      stopWhen: stepCountIs(10),
    });

    expect(result.text).toBe('Done.');
    expect(model.doGenerateCalls).toHaveLength(6);
    // The schemas reach the model as the tools give them.
    expect(model.doGenerateCalls[0]?.tools).toEqual(
      tools.definitions().map((definition) => ({
        type: 'function',
        name: definition.name,
        description: definition.description,
        inputSchema: definition.parameters,
      })),
    );
    expect(toolResultsSeenAt(model, 1)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-read',
        toolName: 'ReadFile',
        output: { type: 'text', value: texts.read },
      },
    ]);
    expect(toolResultsSeenAt(model, 2)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-bad-edit',
        toolName: 'StrReplaceFile',
        output: { type: 'error-text', value: texts.badEdit },
      },
    ]);
    expect(toolResultsSeenAt(model, 3)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-edit',
        toolName: 'StrReplaceFile',
        output: { type: 'text', value: texts.edit },
      },
    ]);
    const [message, open, close] = agentImageTexts(files);
    expect(toolResultsSeenAt(model, 4)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-image',
        toolName: 'ReadMediaFile',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: message },
            { type: 'text', text: open },
            { type: 'image-data', data: agentPictureBase64, mediaType: 'image/png' },
            { type: 'text', text: close },
          ],
        },
      },
    ]);
    // The next step's prompt carries the picture's result again, as the model first read it.
    expect(model.doGenerateCalls[5]?.prompt.at(-3)).toEqual(model.doGenerateCalls[4]?.prompt.at(-1));
    const [scanMessage, scanOpen, scanPage, scanClose] = agentScanTexts(files);
    expect(toolResultsSeenAt(model, 5)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-scan',
        toolName: 'ReadMediaFile',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: scanMessage },
            { type: 'text', text: scanOpen },
            { type: 'text', text: scanPage },
            { type: 'image-data', data: agentScanImage.base64, mediaType: 'image/jpeg' },
            { type: 'text', text: scanClose },
          ],
        },
      },
    ]);
    expect(await readFile(files.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);

    // The host keeps each whole result, diff blocks included, for its user interface; the model never saw them.
    const editResult = result.steps[2]?.toolResults[0]?.output as ToolReturnValue;
    expect(editResult.display.map((block) => block.type)).toEqual(['diff']);
    expect(JSON.stringify(model.doGenerateCalls.map((call) => call.prompt))).not.toContain('"display"');
  });

  it('passes the abort signal to the tool', async () => {
    const controller = new AbortController();
    const seen: Array<AbortSignal | undefined> = [];
    const abortsTheRun = {
      name: 'Stop',
      description: 'Aborts the run it is part of.',
      parameters: { type: 'object', properties: {} },
      async call(_args: unknown, options: { signal?: AbortSignal } = {}): Promise<ToolReturnValue> {
        seen.push(options.signal);
        controller.abort();
        return { isError: false, output: '', message: 'stopped', brief: '', display: [] };
      },
    };
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep('call-stop', { name: 'Stop', input: {} }), textStep('Done.')],
    });

    await generateText({
      model,
      tools: aiSdkTools([abortsTheRun]),
      prompt: 'stop',
      abortSignal: controller.signal,
    });

    // The tool got a signal, and it is the run's: aborting the run aborted it.
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
  });

  test('bridges needsApproval: the SDK stops for approval, the tool runs once approved', async ({
    files,
    tools,
  }) => {
    await tools.call('ReadFile', { path: 'answer.ts' });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep('call-edit', calls.edit), textStep('Done.')],
    });
    const fileTools = aiSdkTools(tools, { needsApproval: (name) => name === 'StrReplaceFile' });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Make the answer 42.' }];

    const first = await generateText({ model, tools: fileTools, messages, stopWhen: stepCountIs(5) });
    const approvals = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(approvals.map((part) => part.toolCall.toolName)).toEqual(['StrReplaceFile']);
    expect(await readFile(files.at('answer.ts'), 'utf8')).toBe(agentScenario.files['answer.ts']);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: approvals.map((part) => ({
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: true,
      })),
    });
    const second = await generateText({ model, tools: fileTools, messages, stopWhen: stepCountIs(5) });

    expect(second.text).toBe('Done.');
    expect(await readFile(files.at('answer.ts'), 'utf8')).toBe(agentScenario.editedSource);
  });

  test('bridges needsApproval: a denied call never runs, and the model reads the denial', async ({
    files,
    tools,
  }) => {
    await tools.call('ReadFile', { path: 'answer.ts' });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallStep('call-edit', calls.edit), textStep('Understood.')],
    });
    const fileTools = aiSdkTools(tools, { needsApproval: () => true });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Make the answer 42.' }];

    const first = await generateText({ model, tools: fileTools, messages, stopWhen: stepCountIs(5) });
    const approvals = first.content.filter((part) => part.type === 'tool-approval-request');
    messages.push(...first.response.messages, {
      role: 'tool',
      content: approvals.map((part) => ({
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: false,
        reason: 'Keep 41.',
      })),
    });
    const second = await generateText({ model, tools: fileTools, messages, stopWhen: stepCountIs(5) });

    expect(second.text).toBe('Understood.');
    expect(await readFile(files.at('answer.ts'), 'utf8')).toBe(agentScenario.files['answer.ts']);
    expect(toolResultsSeenAt(model, 1)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-edit',
        toolName: 'StrReplaceFile',
        output: { type: 'execution-denied', reason: 'Keep 41.' },
      },
    ]);
  });
});
