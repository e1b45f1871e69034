// @kimi-tools/anthropic: the tools on Anthropic's messages API. Types come from `@anthropic-ai/sdk` (an optional
// peer); nothing here sends a request.
export { anthropicTools } from './anthropic-tools.js';
export { runToolUses } from './tool-results.js';
