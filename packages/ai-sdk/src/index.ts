// @kimi-tools/ai-sdk: the tools as a Vercel AI SDK (5 and 6) tool set.
export {
  aiSdkTools,
  DEFAULT_ACCEPTED_MEDIA_TYPES,
  type AiSdkTool,
  type AiSdkToolsOptions,
} from './ai-sdk-tools.js';
