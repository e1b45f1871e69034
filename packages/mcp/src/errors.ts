import { counted, quotedArgument, showUnsafeCharacters, shownArgument } from '@kimi-tools/core/toolkit';

// The MCP adapter's error vocabulary: every brief and error message it words, once.

/** How a rejection for want of elicitation starts: the client cannot show an approval form, so nothing was written. */
export const ELICITATION_UNSUPPORTED_TEXT =
  'This MCP client does not support elicitation, so the user could not be asked to approve the change, and ' +
  'nothing was written.';

/** Rejection feedback of the default fallback, used when the client cannot show an approval form. */
export const NO_ELICITATION_FEEDBACK = `${ELICITATION_UNSUPPORTED_TEXT} The server must be configured to allow changes without asking.`;

/**
 * What the server's `onerror` hears when an approval form got no usable answer (`why`: the error or the answer). The
 * client words its own errors: their control characters are shown as pictures, so that a log or terminal printing the
 * message shows them rather than obeys them.
 */
export function noValidAnswerMessage(why: string): string {
  return `The approval form got no valid answer, so the change was rejected: ${showUnsafeCharacters(why)}`;
}

/**
 * What the server's `onerror` hears when the tool call was cancelled (by the client, or as the connection closed)
 * while its approval form was open: the SDK withdraws the form, and the change is rejected.
 */
export const FORM_WITHDRAWN_MESSAGE =
  'The tool call was cancelled while its approval form was open: the form was withdrawn, and the change was not written.';

/** Why an accepted approval form is refused (what the client sent is not quoted). */
export const MALFORMED_ANSWER_TEXT =
  'the form was accepted without one of the decisions it offers, or with hunks or content it did not offer.';

/** Ends a text cut to fit in one MCP message (`omitted`: how many UTF-16 characters were left out). */
export function cutMarker(omitted: number): string {
  return `\n[… ${omitted} more characters cut: the text does not fit in one MCP message]`;
}

/**
 * Sent instead of an image or video too large for one MCP message. Its base64 size is said too: that is what the
 * message would hold, and a file smaller than the limit may not fit once encoded.
 */
export function mediaTooLargeText(
  kind: 'image' | 'video',
  bytes: number,
  base64Length: number,
  limit: number,
): string {
  return `The ${kind} (${bytes} bytes, ${base64Length} in base64) was not sent: it does not fit in one MCP message (at most ${limit} bytes).`;
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

/** What a line from the client holds, as a message says it: `null`, `the number 5`, ``the string `x` ``, `an array`. */
export function heldValue(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string')
    return value === '' ? 'an empty string' : `the string ${quotedArgument(value)}`;
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** A line that is not JSON (`why`: the parser's error, as core shows an error's text), answered with `-32700`. */
export function notJsonMessage(why: string): string {
  return `The line is not JSON (${why}): each line must be one JSON-RPC message, a JSON object.`;
}

/** A line holding a JSON array: a JSON-RPC batch, which MCP does not take. */
export function batchMessage(count: number): string {
  return `The line is a batch of ${counted(count, 'message')}: MCP takes one JSON-RPC message per line and no batches, so none of them was read.`;
}

/** A line holding JSON that is not an object (`held`: {@link heldValue}). */
export function notAnObjectMessage(held: string): string {
  return `The line is ${held}, not a JSON-RPC message: each line must be one JSON object.`;
}

/** What each member of a JSON-RPC message must hold, as a message says it. */
export const MEMBER_RULES = {
  jsonrpc: 'jsonrpc must be "2.0"',
  id: 'id must be a string or an integer',
  method: 'method must be the name of a method, a string',
  params: 'params must be an object, or left out',
} as const;

/** A member of a `kind` of message (`field`, shown as core shows an argument) that is missing or holds what it may not. */
export function memberMessage(kind: string, field: string, value: unknown, rule: string): string {
  const shown = shownArgument(field);
  return value === undefined
    ? `The ${kind} has no ${shown}: ${rule}.`
    : `The ${kind}'s ${shown} is ${heldValue(value)}: ${rule}.`;
}

/** The rule of a member deeper in a message, which MCP's schema alone checks (`missing`: it is left out). */
export function schemaRule(missing: boolean): string {
  return missing ? "MCP's schema requires it" : "MCP's schema does not take it there";
}

/** A member JSON-RPC does not define for a `kind` of message (`members`: those it does). */
export function unknownMemberMessage(kind: string, name: string, members: readonly string[]): string {
  const list = `${members.slice(0, -1).join(', ')} and ${members.at(-1)}`;
  return `The ${kind} holds ${quotedArgument(name)}, which JSON-RPC does not define: a ${kind} holds only ${list}.`;
}

/** A message MCP's schema refuses as a whole (no member of it to name). */
export function invalidMessage(kind: string): string {
  return `The ${kind} is not a message MCP's schema takes.`;
}
