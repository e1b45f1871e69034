// The Quick start of packages/ai-sdk/README.md, verbatim (a test checks it), so that CI type-checks what the README
// shows; apps/readme-snippets runs it.

import { aiSdkTools } from '@kimi-tools/ai-sdk';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';
import { generateText, stepCountIs } from 'ai';

const runtime = createRuntime({
  workDir: process.cwd(),
  // Refuses paths outside the project; without it, yoloApproval() lets writes there go ahead without asking.
  outside: 'deny',
  approval: yoloApproval(), // see Approvals below
});
const fileTools = [
  new ReadFile(runtime),
  new WriteFile(runtime),
  new StrReplaceFile(runtime),
  new Glob(runtime),
  new Grep(runtime),
  new ReadMediaFile(runtime, { capabilities: ['image_in'] }),
];

const tools = aiSdkTools(fileTools); // the adapter: one line
const { text } = await generateText({
  model: 'openai/gpt-5', // any AI SDK model; a string is an AI Gateway model id (AI_GATEWAY_API_KEY)
  tools,
  prompt: 'Fix the failing test.',
  stopWhen: stepCountIs(30),
});
console.log(text);
