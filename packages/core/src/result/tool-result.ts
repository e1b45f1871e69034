/** One part of a tool's multi-part output: text, or media given by URL (often a data URL). */
export type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; url: string } | { type: 'video_url'; url: string };

/** A short label shown to the user. */
export interface BriefDisplayBlock {
  type: 'brief';
  text: string;
}

/** One group of nearby changes (or a summary of a change too large to show). */
export interface DiffDisplayBlock {
  type: 'diff';
  path: string;
  oldText: string;
  newText: string;
  /** 1-based line number of `oldText`'s first line. */
  oldStart: number;
  /** 1-based line number of `newText`'s first line. */
  newStart: number;
  isSummary: boolean;
}

/** A block the user interface renders for the user (never sent to the model). */
export type DisplayBlock = BriefDisplayBlock | DiffDisplayBlock;

/** What every tool call resolves to. Tools never throw. */
export interface ToolReturnValue {
  isError: boolean;
  output: string | ContentPart[];
  message: string;
  /** Short label for the user; `''` when none. Error briefs are stable identifiers. */
  brief: string;
  display: DisplayBlock[];
  extras?: Record<string, unknown>;
}

/** Fields a tool fills in for a result; the rest get defaults. */
export interface ToolResultInit {
  output?: string | ContentPart[];
  message?: string;
  brief?: string;
  display?: DisplayBlock[];
  extras?: Record<string, unknown>;
}

function buildResult(isError: boolean, init: ToolResultInit): ToolReturnValue {
  const brief = init.brief ?? '';
  const display: DisplayBlock[] = brief ? [{ type: 'brief', text: brief }] : [];
  display.push(...(init.display ?? []).filter((block) => block.type !== 'brief'));
  const result: ToolReturnValue = {
    isError,
    output: init.output ?? '',
    message: init.message ?? '',
    brief,
    display,
  };
  if (init.extras !== undefined) result.extras = init.extras;
  return result;
}

/** A successful result. The brief block, when there is a brief, is put first in `display`. */
export function toolOk(init: ToolResultInit = {}): ToolReturnValue {
  return buildResult(false, init);
}

/** An error result; `message` says what happened and what to do next, `brief` is a stable identifier. */
export function toolError(init: ToolResultInit & { message: string; brief: string }): ToolReturnValue {
  return buildResult(true, init);
}

/** The result of a call the user rejected, with their feedback when they gave any. */
export function toolRejected(feedback?: string): ToolReturnValue {
  const text = feedback?.trim();
  if (text) {
    return toolError({
      message: `The tool call is rejected by the user. User feedback: ${text}`,
      brief: `Rejected: ${text}`,
    });
  }
  return toolError({
    message:
      'The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.',
    brief: 'Rejected by user',
  });
}

/** The text of an unknown thrown value, for `Error: {e}` messages. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
