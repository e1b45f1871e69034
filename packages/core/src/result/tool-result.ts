import { Briefs, rejectedBrief, rejectedMessage, type RejectedBrief } from '../errors.js';

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

/** What a file change observer (diagnostics, a formatter) adds for the user about a change; `source` names it. */
export interface SectionDisplayBlock {
  type: 'section';
  source: string;
  text: string;
}

/** A block the user interface renders for the user (never sent to the model). */
export type DisplayBlock = BriefDisplayBlock | DiffDisplayBlock | SectionDisplayBlock;

/**
 * What every tool call resolves to. Tools never throw. `Brief` narrows `brief` to the briefs a tool can give
 * (a tool's `call()` says which); it defaults to `string`, which every narrower result is assignable to.
 */
export interface ToolReturnValue<Brief extends string = string> {
  isError: boolean;
  output: string | ContentPart[];
  message: string;
  /** Short label for the user; `''` when none. Error briefs are stable identifiers. */
  brief: Brief;
  display: DisplayBlock[];
  extras?: Record<string, unknown>;
}

/** Fields a tool fills in for a result; the rest get defaults. */
export interface ToolResultInit<Brief extends string = string> {
  output?: string | ContentPart[];
  message?: string;
  brief?: Brief;
  display?: DisplayBlock[];
  extras?: Record<string, unknown>;
}

function buildResult<Brief extends string>(
  isError: boolean,
  init: ToolResultInit<Brief>,
): ToolReturnValue<Brief> {
  const brief = init.brief ?? ('' as Brief);
  const display: DisplayBlock[] = brief ? [{ type: 'brief', text: brief }] : [];
  display.push(...(init.display ?? []).filter((block) => block.type !== 'brief'));
  const result: ToolReturnValue<Brief> = {
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
export function toolOk<Brief extends string = ''>(init: ToolResultInit<Brief> = {}): ToolReturnValue<Brief> {
  return buildResult(false, init);
}

/** An error result; `message` says what happened and what to do next, `brief` is a stable identifier. */
export function toolError<Brief extends string>(
  init: ToolResultInit<Brief> & { message: string; brief: Brief },
): ToolReturnValue<Brief> {
  return buildResult(true, init);
}

/** The result of a call the user rejected, with their feedback when they gave any. */
export function toolRejected(feedback?: string): ToolReturnValue<RejectedBrief> {
  const text = feedback?.trim();
  const brief: RejectedBrief = text ? rejectedBrief(text) : Briefs.rejectedByUser;
  return toolError({ message: rejectedMessage(text), brief });
}

/** What {@link errorText} says of a thrown value that has no string form (`Object.create(null)`, a hostile Proxy). */
export const UNPRINTABLE_ERROR_TEXT = '[object without a string form]';

/**
 * The text of an unknown thrown value, for `Error: {e}` messages. Never throws itself: a value whose `message` or
 * string conversion throws (a caller's hostile object) gets {@link UNPRINTABLE_ERROR_TEXT}.
 */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return UNPRINTABLE_ERROR_TEXT;
  }
}
