import { en } from 'zod/locales';
import { toJSONSchema } from 'zod/mini';
import type { ToolZod } from '@kimi-tools/core/toolkit';

/** The zod this package bundles, as core uses it (`ToolZod`): its JSON Schema converter and its English messages. */
export const TOOL_ZOD: ToolZod = { toJSONSchema, englishMessages: en().localeError };
