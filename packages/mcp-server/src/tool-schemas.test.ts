import { CallableTool, yoloApproval, type ToolReturnValue } from '@kimi-tools/core';
import type { ToolParamsSchema } from '@kimi-tools/core/toolkit';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from 'zod/locales';
import { toJSONSchema } from 'zod/mini';
import { createCheckpointTools } from './checkpoint-tools.js';
import { createFileTools } from './file-tools.js';
import { SERVED_TOOL_NAMES } from './__fixtures__/served-tools.js';

// The tools bundle no JSON Schema converter: core writes their schemas. Checked here, where every tool package is a
// dependency, against zod's own converter, character for character (the order of the keys is what a model reads).

/** The same parameters, their JSON Schema written by zod's converter. */
class ConvertedByZod extends CallableTool<ToolParamsSchema> {
  readonly name = 'ConvertedByZod';
  readonly description = 'zod writes this JSON Schema';
  protected readonly failureBrief = 'Failed';
  protected override readonly zod = { toJSONSchema, englishMessages: en().localeError };

  constructor(readonly params: ToolParamsSchema) {
    super();
  }

  protected execute(): Promise<ToolReturnValue> {
    throw new Error('never called');
  }
}

describe('the JSON Schema of every tool', () => {
  let workspace: TempWorkspace;
  let tools: CallableTool<ToolParamsSchema>[];

  beforeAll(async () => {
    workspace = await createTempWorkspace();
    const runtime = workspace.runtime({ approval: yoloApproval() });
    tools = [
      ...createFileTools(runtime, { ReadMediaFile: { capabilities: ['image_in', 'video_in'] } }),
      ...createCheckpointTools(runtime),
    ].filter((tool): tool is CallableTool<ToolParamsSchema> => tool instanceof CallableTool);
  });

  afterAll(() => workspace.cleanup());

  it('is what zod writes, key for key and in the same order', () => {
    expect(tools.map((tool) => tool.name)).toEqual(SERVED_TOOL_NAMES);
    for (const tool of tools) {
      expect(JSON.stringify(tool.parameters), tool.name).toBe(
        JSON.stringify(new ConvertedByZod(tool.params).parameters),
      );
    }
  });
});
