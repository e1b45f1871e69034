import { Briefs, toolFailedMessage, toolNotFoundMessage } from '../errors.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import { shownErrorText } from '../result/shown-error-text.js';
import { shownArgument } from '../text/escape-for-display.js';
import type { CallableTool, CallOptions } from './callable-tool.js';
import type { JsonSchema } from './json-schema.js';
import type { ToolParamsSchema } from './tool-zod.js';
import { strictParameters } from './strict-parameters.js';

/** What a tool set needs of a tool: every `CallableTool` has this shape, and so can a host's own tool object. */
type SetTool = Pick<CallableTool<ToolParamsSchema>, 'name' | 'description' | 'parameters' | 'call'>;

/** A tool as a model API is told about it. */
export interface ToolDefinition {
  /** The tool name the model calls, e.g. `ReadFile`. */
  name: string;
  /** The Markdown description the model reads. */
  description: string;
  /** The JSON Schema of the arguments (the strict-mode form when asked for). */
  parameters: JsonSchema;
}

/** Tools by name, with the dispatch every agent loop needs (see {@link createToolSet}). */
export interface ToolSet<Tool extends SetTool = CallableTool<ToolParamsSchema>> {
  /** The tool names, in the order the tools were given. */
  readonly names: readonly string[];
  /** The tool called `name`, or `undefined`. */
  get(name: string): Tool | undefined;
  /**
   * Every tool's name, description and parameters, in order; with `strict: true`, the parameters in the strict-mode
   * form of {@link strictParameters} (for OpenAI `strict: true`).
   */
  definitions(options?: { strict?: boolean }): ToolDefinition[];
  /**
   * Runs the tool `name` on a model's arguments: an object, or the raw JSON text of one (an OpenAI
   * `function.arguments`); `undefined`, `null` or a blank text count as no arguments (`{}`). Never throws and never
   * rejects: an unknown name gives the `Tool not found` error result listing the tools there are, and a tool that
   * throws (a host's own) gives a `Tool failed` one. Calls may run in parallel.
   */
  call(name: string, args: unknown, options?: CallOptions): Promise<ToolReturnValue>;
}

function noArguments(args: unknown): boolean {
  return args === undefined || args === null || (typeof args === 'string' && args.trim() === '');
}

/**
 * A tool set over `tools`: lookup by name, the definitions a model API is sent, and a never-throwing `call` by
 * name. Holds no state of its own beyond the tools, so parallel calls are fine (the tools share their runtime).
 * Throws when two tools have the same name: that is a mistake of the host, not of the model.
 */
export function createToolSet<Tool extends SetTool>(tools: readonly Tool[]): ToolSet<Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`createToolSet: two tools are named "${tool.name}".`);
    byName.set(tool.name, tool);
  }
  const names = Object.freeze([...byName.keys()]);
  return {
    names,
    get: (name) => byName.get(name),
    definitions: (options = {}) =>
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: options.strict === true ? strictParameters(tool.parameters) : tool.parameters,
      })),
    async call(name, args, options = {}) {
      const tool = byName.get(name);
      if (!tool) {
        return toolError({
          message: toolNotFoundMessage(shownArgument(String(name)), names),
          brief: Briefs.toolNotFound,
        });
      }
      try {
        return await tool.call(noArguments(args) ? {} : args, options);
      } catch (error) {
        // Tools built on CallableTool never throw; a host's own tool object might, and the loop must go on.
        return toolError({
          message: toolFailedMessage(tool.name, shownErrorText(error)),
          brief: Briefs.toolFailed,
        });
      }
    },
  };
}
