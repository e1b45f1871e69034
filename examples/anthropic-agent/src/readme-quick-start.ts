// The Quick start of packages/anthropic/README.md, verbatim (a test checks it), so that CI type-checks what the README
// shows; apps/readme-snippets runs it.

import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { anthropicTools, runToolUses } from '@kimi-tools/anthropic';
import { createRuntime, yoloApproval } from '@kimi-tools/core';
import { ReadMediaFile } from '@kimi-tools/media';
import { ReadFile } from '@kimi-tools/read';
import { StrReplaceFile } from '@kimi-tools/replace';
import { Glob, Grep } from '@kimi-tools/search';
import { WriteFile } from '@kimi-tools/write';

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

const client = new Anthropic(); // ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for another endpoint
const model = 'claude-sonnet-5';
const max_tokens = 8192;
const messages: MessageParam[] = [{ role: 'user', content: 'Fix the failing test.' }];

// in your loop, the adapter is these three statements:
const message = await client.messages.create({
  model,
  max_tokens,
  messages,
  tools: anthropicTools(fileTools),
});
messages.push({ role: 'assistant', content: message.content });
messages.push({ role: 'user', content: await runToolUses(fileTools, message.content) });
