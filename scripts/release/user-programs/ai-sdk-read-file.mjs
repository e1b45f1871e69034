// A user of @kimi-tools/ai-sdk with the AI SDK: the SDK's mock model calls ReadFile on notes.txt, then answers.
import { aiSdkTools } from '@kimi-tools/ai-sdk';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadFile } from '@kimi-tools/read';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'ReadFile', input: '{"path":"notes.txt"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'Read it.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ],
});
const runtime = createRuntime({ workDir: process.cwd(), approval: yoloApproval() });
const result = await generateText({
  model,
  tools: aiSdkTools([new ReadFile(runtime)]),
  prompt: 'Read notes.txt.',
  stopWhen: stepCountIs(3),
});
const toolMessage = model.doGenerateCalls[1]?.prompt.at(-1);
console.log(JSON.stringify({ text: result.text, toolMessage }));
