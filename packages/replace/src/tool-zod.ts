import { en } from 'zod/locales';
import { globalRegistry } from 'zod/mini';
import type { ToolZod } from '@kimi-tools/core/toolkit';

/**
 * The zod this package bundles, as core uses it (`ToolZod`): its registry, where core reads the descriptions to write
 * the JSON Schema, and its English messages.
 */
export const TOOL_ZOD: ToolZod = { metadata: globalRegistry, englishMessages: en().localeError };
