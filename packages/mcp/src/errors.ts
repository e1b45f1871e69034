import { shownArgument } from '@kimi-tools/core/toolkit';

// The MCP adapter's error vocabulary: every brief and error message it words, once.

/** How a rejection for want of elicitation starts: the client cannot show an approval form, so nothing was written. */
export const ELICITATION_UNSUPPORTED_TEXT =
  'This MCP client does not support elicitation, so the user could not be asked to approve the change, and ' +
  'nothing was written.';

/** Rejection feedback of the default fallback, used when the client cannot show an approval form. */
export const NO_ELICITATION_FEEDBACK = `${ELICITATION_UNSUPPORTED_TEXT} The server must be configured to allow changes without asking.`;

/** What the server's `onerror` hears when an approval form got no usable answer (`why`: the error or the answer). */
export function noValidAnswerMessage(why: string): string {
  return `The approval form got no valid answer, so the change was rejected: ${why}`;
}

/** Why an accepted approval form is refused (what the client sent is not quoted). */
export const MALFORMED_ANSWER_TEXT =
  'the form was accepted without one of the decisions it offers, or with hunks or content it did not offer.';

/** Ends a text cut to fit in one MCP message (`omitted`: how many UTF-16 characters were left out). */
export function cutMarker(omitted: number): string {
  return `\n[… ${omitted} more characters cut: the text does not fit in one MCP message]`;
}

/** Sent instead of an image or video too large for one MCP message. */
export function mediaTooLargeText(kind: 'image' | 'video', bytes: number, limit: number): string {
  return `The ${kind} (${bytes} bytes) was not sent: it does not fit in one MCP message (at most ${limit} bytes).`;
}

/** A call to a tool the server does not offer (`name` shown as core shows a tool name it does not hold). */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  return `Unknown tool: ${shownArgument(name)}. Available tools: ${available.join(', ')}.`;
}

/** A `tools/call` whose `name` is missing or not a string. */
export function noToolNameMessage(available: readonly string[]): string {
  return `tools/call names no tool: params.name must be a tool's name, a string. Available tools: ${available.join(', ')}.`;
}

/** `createMcpServer` was given two tools of one name. */
export function duplicateToolMessage(name: string): string {
  return `createMcpServer: two tools are named "${name}".`;
}

/** `createMcpServer` was given a tool whose parameters are not an object schema. */
export function notObjectSchemaMessage(name: string): string {
  return `createMcpServer: the parameters of "${name}" must be a JSON Schema of type "object".`;
}
