import type { z } from 'zod';
import { Briefs, invalidArgumentsMessage, toolFailedMessage } from '../errors.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import { shownErrorText } from '../result/shown-error-text.js';
import { readShownPath } from '../path/normalize-input.js';
import { collectChangeSections } from '../observe/call-sections.js';
import { deniedCall, type PermissionRuntime } from '../permissions/denied-by-rule.js';
import type { ToolAccess } from '../permissions/permission-rule.js';
import { toToolJsonSchema, type JsonSchema } from './json-schema.js';
import type { ToolParamsSchema, ToolZod } from './tool-zod.js';
import { validateArguments } from './validate-arguments.js';

/** Options of a single tool call. */
export interface CallOptions {
  /** Aborts the call (e.g. kills a running search). */
  signal?: AbortSignal;
}

/**
 * Base of every tool: validates the model's arguments against `params`, refuses a call whose path a `deny`
 * permission rule matches (docs/permissions.md), runs {@link execute}, and turns anything thrown into an error
 * result, so `call` never throws or rejects. `Brief` lists the briefs the tool's
 * results can carry (default `string`); a tool narrowed this way is still a `CallableTool<ToolParamsSchema>`.
 * `params` may be a classic `zod` or a `zod/mini` schema (see {@link zod}).
 */
export abstract class CallableTool<TParams extends ToolParamsSchema, Brief extends string = string> {
  /** The tool name the model calls, e.g. `ReadFile`. */
  abstract readonly name: string;
  /** The Markdown description the model reads. */
  abstract readonly description: string;
  /** The zod schema of the arguments (classic `zod` or `zod/mini`). */
  abstract readonly params: TParams;
  /**
   * What core needs of the zod {@link params} was made with (core never loads zod): its registry, where core reads
   * the descriptions to write the JSON Schema (a `zod/mini` schema, what the tool packages use for about half the
   * start-up of a classic one, has no `toJSONSchema` method), and the English messages that make the model's errors
   * read the same whatever locale the host's zod uses. Left out, a classic schema converts itself and its issues are
   * worded in zod's current locale.
   */
  protected readonly zod?: ToolZod;
  /** Brief of the error result made from an unexpected exception, e.g. `Failed to read file`. */
  protected abstract readonly failureBrief: Brief;
  /**
   * The parameters that name a file or a directory. Each is read back from the form paths are shown in
   * (`readShownPath`, docs/paths.md#how-paths-are-shown) before {@link execute} runs, so a name copied from any
   * answer reaches its file, and every message the tool words from the argument quotes that same name.
   */
  protected readonly pathParameters: readonly string[] = [];
  /**
   * What the tool does to files, which puts it in a group of the permission rules (docs/permissions.md#tools-and-groups):
   * `read` in `Read` (it only reads), `edit` in `Edit` (it changes files). Left out, only the rules that name the tool
   * match its calls; whatever it says, a change a tool asks approval for is judged as an edit.
   */
  readonly access?: ToolAccess;

  private jsonSchema: JsonSchema | undefined;
  private readonly permissionRuntime: PermissionRuntime | undefined;

  /**
   * `runtime`: the runtime the tool works on. Given, its permission rules judge each call on the paths the
   * {@link pathParameters} name before {@link execute} runs, so a denied path is refused before the tool looks at it;
   * every tool made on a runtime passes it.
   */
  constructor(runtime?: PermissionRuntime) {
    this.permissionRuntime = runtime;
  }

  /** The JSON Schema of {@link params}, as sent to a model (no `$ref`s, no titles). */
  get parameters(): JsonSchema {
    this.jsonSchema ??= toToolJsonSchema(this.params, this.zod);
    return this.jsonSchema;
  }

  /** Runs the tool on raw model arguments. Never throws. */
  async call(
    args: unknown,
    options: CallOptions = {},
  ): Promise<ToolReturnValue<Brief | typeof Briefs.invalidArguments | typeof Briefs.deniedByRule>> {
    const validated = validateArguments(this.params, args, this.zod?.englishMessages);
    if (!validated.ok) {
      return toolError({
        message: invalidArgumentsMessage(validated.issues),
        brief: Briefs.invalidArguments,
      });
    }
    const params = this.withPathsRead(validated.params);
    try {
      const denied = await this.deniedByRule(params);
      if (denied) return denied;
      const run = () => this.execute(params, options);
      return await (this.collectsChangeSections() ? collectChangeSections(run) : run());
    } catch (error) {
      return toolError({
        message: this.failureMessage(params, shownErrorText(error)),
        brief: this.failureBrief,
      });
    }
  }

  /** Does the work on validated arguments. May throw; {@link call} turns that into an error result. */
  protected abstract execute(
    params: z.core.output<TParams>,
    options: CallOptions,
  ): Promise<ToolReturnValue<Brief>>;

  /**
   * Whether this call may apply a change whose observers' sections go into its result, asked once as the call
   * starts. Only then does the call run inside the context that collects those sections: an AsyncLocalStorage,
   * whose first use makes Node track every promise of the process from then on (about 18 ms of CPU in a fresh
   * process fitting a large image). `true` by default, so a contributed tool that applies changes gets its sections
   * without saying so; core's read-only tools answer `false`, its writing tools whether the runtime has observers.
   */
  protected collectsChangeSections(): boolean {
    return true;
  }

  private async deniedByRule(params: z.core.output<TParams>) {
    if (this.permissionRuntime === undefined) return undefined;
    const given = params as Record<string, unknown>;
    const inputs = this.pathParameters
      .map((name) => given[name])
      .filter((value): value is string => typeof value === 'string');
    return deniedCall(this.permissionRuntime, { name: this.name, access: this.access }, inputs);
  }

  private withPathsRead(params: z.core.output<TParams>): z.core.output<TParams> {
    const given = params as Record<string, unknown>;
    const paths = this.pathParameters.filter((name) => typeof given[name] === 'string');
    if (paths.length === 0) return params;
    const read = { ...given };
    for (const name of paths) read[name] = readShownPath(given[name] as string);
    return read as z.core.output<TParams>;
  }

  /** Message of the error result made from an unexpected exception; tools override it with their wording. */
  protected failureMessage(_params: z.core.output<TParams>, error: string): string {
    return toolFailedMessage(this.name, error);
  }
}
