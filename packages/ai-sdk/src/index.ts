// @kimi-tools/ai-sdk: the tools as a Vercel AI SDK (5 and 6) tool set.
export { aiSdkTools, type AiSdkTool, type AiSdkToolsOptions } from './ai-sdk-tools.js';
