import { shownErrorText } from '@kimi-tools/core/toolkit';
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import {
  batchMessage,
  heldValue,
  invalidMessage,
  MEMBER_RULES,
  memberMessage,
  notAnObjectMessage,
  notJsonMessage,
  schemaRule,
  unknownMemberMessage,
} from './errors.js';

/** The JSON-RPC error that answers a line: to the request's id when it can be read, else to `null`. */
export interface LineAnswer {
  id: string | number | null;
  code: ErrorCode;
}

/** What is wrong with a line that holds no message MCP takes, and the error that answers it, if any. */
export interface LineProblem {
  /** What is wrong, in words: the answer's message, and what the server's `onerror` is told. */
  text: string;
  /** Absent for a notification or a response: JSON-RPC answers neither. */
  answer?: LineAnswer;
  /**
   * The id a malformed response names: the server's own request of that id (an approval form, a ping) fails with
   * {@link text} at once, instead of waiting for its timeout (ten minutes for a form) for an answer that came.
   */
  failsRequest?: string | number;
}

/** What a line from the client holds: a message, or what is wrong with it; `undefined` for a blank line. */
export type ReadLine = { message: JSONRPCMessage } | { problem: LineProblem } | undefined;

const BLANK = /^\s*$/;

type Kind = 'request' | 'notification' | 'response';

/** The members JSON-RPC defines for each kind of message (MCP's schema takes no other). */
const MEMBERS: Readonly<Record<Kind, readonly string[]>> = {
  request: ['jsonrpc', 'id', 'method', 'params'],
  notification: ['jsonrpc', 'method', 'params'],
  response: ['jsonrpc', 'id', 'result', 'error'],
};

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request id MCP takes: a string or an integer. */
function isRequestId(id: unknown): boolean {
  return typeof id === 'string' || Number.isInteger(id);
}

/** An id an answer can carry back: a string or any number JSON can write (`1.5` too, though MCP takes integers). */
function readableId(id: unknown): string | number | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * A response has no method and a result or an error; a notification has a method and no id. Anything else is read as
 * a request, as JSON-RPC reads `{"method": 1}` or `{}`, and answered.
 */
function kindOf(message: JsonObject): Kind {
  if (!('method' in message) && ('result' in message || 'error' in message)) return 'response';
  return !('id' in message) && typeof message.method === 'string' ? 'notification' : 'request';
}

function schemaOf(kind: Kind, message: JsonObject) {
  if (kind === 'request') return JSONRPCRequestSchema;
  if (kind === 'notification') return JSONRPCNotificationSchema;
  return 'result' in message ? JSONRPCResultResponseSchema : JSONRPCErrorResponseSchema;
}

/** What `message` holds at `path` (a path of MCP's schema), `undefined` where nothing is. */
function valueAt(message: JsonObject, path: readonly PropertyKey[]): unknown {
  let value: unknown = message;
  for (const key of path) {
    value =
      typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return value;
}

/** The first thing wrong with a message of `kind`, in words, and the error code it is answered with. */
function memberProblem(kind: Kind, message: JsonObject): { text: string; code: ErrorCode } {
  const invalid = (text: string) => ({ text, code: ErrorCode.InvalidRequest });
  if (message.jsonrpc !== '2.0') {
    return invalid(memberMessage(kind, 'jsonrpc', message.jsonrpc, MEMBER_RULES.jsonrpc));
  }
  if ('id' in message && !isRequestId(message.id)) {
    return invalid(memberMessage(kind, 'id', message.id, MEMBER_RULES.id));
  }
  if (kind !== 'response' && typeof message.method !== 'string') {
    return invalid(memberMessage(kind, 'method', message.method, MEMBER_RULES.method));
  }
  const unknown = Object.keys(message).find((key) => !MEMBERS[kind].includes(key));
  if (unknown !== undefined) return invalid(unknownMemberMessage(kind, unknown, MEMBERS[kind]));
  if ('params' in message && !isObject(message.params)) {
    return {
      text: memberMessage(kind, 'params', message.params, MEMBER_RULES.params),
      code: ErrorCode.InvalidParams,
    };
  }
  // Deeper in the message (`params._meta`, a response's `error.code`): the first member MCP's schema refuses.
  const issue = schemaOf(kind, message).safeParse(message).error?.issues[0];
  if (!issue || issue.path.length === 0) return invalid(invalidMessage(kind));
  const value = valueAt(message, issue.path);
  const text = memberMessage(kind, issue.path.map(String).join('.'), value, schemaRule(value === undefined));
  return { text, code: issue.path[0] === 'params' ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest };
}

/** What is wrong with a JSON value MCP's schema refuses, and how JSON-RPC answers it. */
function problemOf(value: unknown): LineProblem {
  if (Array.isArray(value)) {
    return { text: batchMessage(value.length), answer: { id: null, code: ErrorCode.InvalidRequest } };
  }
  if (!isObject(value)) {
    return {
      text: notAnObjectMessage(heldValue(value)),
      answer: { id: null, code: ErrorCode.InvalidRequest },
    };
  }
  const kind = kindOf(value);
  const { text, code } = memberProblem(kind, value);
  if (kind === 'request') return { text, answer: { id: readableId(value.id), code } };
  const id = value.id;
  return kind === 'response' && isRequestId(id) ? { text, failsRequest: id as string | number } : { text };
}

/**
 * Reads one line from the client (without its line feed) as the SDK's stdio transport does (a carriage return at its
 * end left out, the JSON checked against MCP's message schema), and says what is wrong with one it would drop: a line
 * that is not JSON is answered with `-32700` to `null`, a request with `-32600` (or `-32602` for its `params`) to its
 * id, a batch or a value that is no object with `-32600` to `null`; a notification or a response is never answered,
 * and a response names the request of the server's it fails.
 */
export function readMessageLine(line: string): ReadLine {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  // A blank line holds no message: nothing to answer (a client may end its messages with an extra line feed).
  if (BLANK.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      problem: {
        text: notJsonMessage(shownErrorText(error)),
        answer: { id: null, code: ErrorCode.ParseError },
      },
    };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? { message: parsed.data } : { problem: problemOf(value) };
}
