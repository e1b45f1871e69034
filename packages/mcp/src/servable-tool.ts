import type { CallOptions, JsonSchema, ToolReturnValue } from '@kimi-tools/core';
import type { ToolAccess } from '@kimi-tools/core/toolkit';

/**
 * What {@link createMcpServer} needs from a tool: every `CallableTool` of @kimi-tools has this shape, and so can
 * a tool of your own. `call` should never throw (a throw still becomes an error result).
 */
export interface ServableTool {
  /** The tool name clients call, e.g. `ReadFile`. */
  readonly name: string;
  /** The Markdown description the model reads. */
  readonly description: string;
  /** JSON Schema of the arguments (an object schema), sent to clients unchanged. */
  readonly parameters: JsonSchema;
  /**
   * What the tool does to files, as a `CallableTool` declares it (`read` or `edit`): the MCP hints it is listed with
   * (`readOnlyHint`, `destructiveHint`) follow from it.
   */
  readonly access?: ToolAccess | undefined;
  /** Runs the tool on the client's raw arguments. */
  call(args: unknown, options?: CallOptions): Promise<ToolReturnValue>;
}
