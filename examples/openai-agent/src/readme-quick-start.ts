// The Quick start of packages/openai/README.md, verbatim (a test checks it), so that CI type-checks what the README
// shows; apps/readme-snippets runs it.

import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { chatCompletionsTools, runChatCompletionsToolCalls } from '@kimi-tools/openai';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

const runtime = createRuntime({
  workDir: process.cwd(),
  // Refuses paths outside the project; without it, yoloApproval() lets writes there go ahead without asking.
  outside: 'deny',
  approval: yoloApproval(), // or your own approval
});
const fileTools = [
  new ReadFile(runtime),
  new WriteFile(runtime),
  new StrReplaceFile(runtime),
  new Glob(runtime),
  new Grep(runtime),
  new ReadMediaFile(runtime, { capabilities: ['image_in'] }),
];

const client = new OpenAI(); // OPENAI_API_KEY, and OPENAI_BASE_URL for another OpenAI-compatible API
const model = 'gpt-5';
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Fix the failing test.' }];

// in your loop, the adapter is these three statements:
const completion = await client.chat.completions.create({
  model,
  messages,
  tools: chatCompletionsTools(fileTools),
});
const message = completion.choices[0]!.message;
messages.push(message, ...(await runChatCompletionsToolCalls(fileTools, message.tool_calls)));
