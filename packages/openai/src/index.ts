// @kimi-tools/openai: the tools on OpenAI's chat completions and responses APIs. Types come from the `openai`
// package (an optional peer); nothing here sends a request.
export {
  chatCompletionsTools,
  runChatCompletionsToolCalls,
  type OpenAIToolsOptions,
} from './chat-completions.js';
export { responsesTools, runResponsesToolCalls } from './responses.js';
