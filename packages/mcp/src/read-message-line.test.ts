import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { readMessageLine } from './read-message-line.js';

const PARAMS_RULE = 'params must be an object, or left out.';
const METHOD_RULE = 'method must be the name of a method, a string.';

describe('readMessageLine', () => {
  it('reads every message MCP takes as the SDK does, a carriage return at its end left out', () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Echo","arguments":{"text":"hi"}}}',
      '{"jsonrpc":"2.0","id":"a","method":"tools/list"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":3,"result":{"action":"decline"}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"no"}}',
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"Echo","extra":[1]}}\r',
    ];
    for (const line of lines) {
      expect(readMessageLine(line)).toEqual({ message: deserializeMessage(line.replace(/\r$/, '')) });
    }
  });

  it('reads a blank line as no message', () => {
    expect(readMessageLine('')).toBeUndefined();
    expect(readMessageLine(' \t\r')).toBeUndefined();
  });

  it('answers a request MCP refuses to its id, saying which member is wrong and what it holds', () => {
    const cases: Array<[string, string | number | null, ErrorCode, string]> = [
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}',
        7,
        ErrorCode.InvalidParams,
        `The request's params is null: ${PARAMS_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}',
        7,
        ErrorCode.InvalidParams,
        `The request's params is the string \`x\`: ${PARAMS_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1]}',
        7,
        ErrorCode.InvalidParams,
        `The request's params is an array: ${PARAMS_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}',
        7,
        ErrorCode.InvalidParams,
        `The request's params is the number 5: ${PARAMS_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":true}',
        'a',
        ErrorCode.InvalidParams,
        `The request's params is true: ${PARAMS_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":""}',
        1,
        ErrorCode.InvalidParams,
        `The request's params is an empty string: ${PARAMS_RULE}`,
      ],
      ['{"jsonrpc":"2.0","id":8}', 8, ErrorCode.InvalidRequest, `The request has no method: ${METHOD_RULE}`],
      [
        '{"jsonrpc":"2.0","id":9,"method":5}',
        9,
        ErrorCode.InvalidRequest,
        `The request's method is the number 5: ${METHOD_RULE}`,
      ],
      [
        '{"jsonrpc":"2.0","id":9,"method":{"name":"x"}}',
        9,
        ErrorCode.InvalidRequest,
        `The request's method is an object: ${METHOD_RULE}`,
      ],
      [
        '{"id":10,"method":"tools/list"}',
        10,
        ErrorCode.InvalidRequest,
        'The request has no jsonrpc: jsonrpc must be "2.0".',
      ],
      [
        '{"jsonrpc":"1.0","id":10,"method":"tools/list"}',
        10,
        ErrorCode.InvalidRequest,
        'The request\'s jsonrpc is the string `1.0`: jsonrpc must be "2.0".',
      ],
      [
        '{"jsonrpc":"2.0","id":11,"method":"tools/list","extra":1}',
        11,
        ErrorCode.InvalidRequest,
        'The request holds `extra`, which JSON-RPC does not define: a request holds only jsonrpc, id, method and params.',
      ],
      // An id MCP does not take is still carried back when JSON can write it.
      [
        '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}',
        1.5,
        ErrorCode.InvalidRequest,
        "The request's id is the number 1.5: id must be a string or an integer.",
      ],
      [
        '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
        null,
        ErrorCode.InvalidRequest,
        "The request's id is null: id must be a string or an integer.",
      ],
      [
        '{"jsonrpc":"2.0","id":[1],"method":"tools/list"}',
        null,
        ErrorCode.InvalidRequest,
        "The request's id is an array: id must be a string or an integer.",
      ],
      [
        '{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}',
        null,
        ErrorCode.InvalidRequest,
        "The request's id is the number Infinity: id must be a string or an integer.",
      ],
      // Deeper in params, the first member MCP's schema refuses.
      [
        '{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"_meta":5}}',
        12,
        ErrorCode.InvalidParams,
        "The request's params._meta is the number 5: MCP's schema does not take it there.",
      ],
      // JSON-RPC reads an object with no id and no method of its own as a request, and answers it to null.
      [
        '{"jsonrpc":"2.0","method":1,"params":"bar"}',
        null,
        ErrorCode.InvalidRequest,
        `The request's method is the number 1: ${METHOD_RULE}`,
      ],
      ['{}', null, ErrorCode.InvalidRequest, 'The request has no jsonrpc: jsonrpc must be "2.0".'],
    ];
    for (const [line, id, code, text] of cases) {
      expect(readMessageLine(line), line).toEqual({ problem: { text, answer: { id, code } } });
    }
  });

  it('answers a line that is not JSON, a batch and a value that is no object to null', () => {
    expect(readMessageLine('this is not json')).toEqual({
      problem: {
        text: 'The line is not JSON (Unexpected token \'h\', "this is not json" is not valid JSON): each line must be one JSON-RPC message, a JSON object.',
        answer: { id: null, code: ErrorCode.ParseError },
      },
    });
    const invalid = (text: string) => ({
      problem: { text, answer: { id: null, code: ErrorCode.InvalidRequest } },
    });
    const batch =
      '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]';
    expect(readMessageLine(batch)).toEqual(
      invalid(
        'The line is a batch of 2 messages: MCP takes one JSON-RPC message per line and no batches, so none of them was read.',
      ),
    );
    expect(readMessageLine('[]')).toEqual(
      invalid(
        'The line is a batch of 0 messages: MCP takes one JSON-RPC message per line and no batches, so none of them was read.',
      ),
    );
    expect(readMessageLine('42')).toEqual(
      invalid('The line is the number 42, not a JSON-RPC message: each line must be one JSON object.'),
    );
    expect(readMessageLine('"tools/list"')).toEqual(
      invalid(
        'The line is the string `tools/list`, not a JSON-RPC message: each line must be one JSON object.',
      ),
    );
    expect(readMessageLine('null')).toEqual(
      invalid('The line is null, not a JSON-RPC message: each line must be one JSON object.'),
    );
  });

  it('never answers a notification or a response, but says what is wrong with it, and which request a response fails', () => {
    expect(readMessageLine('{"jsonrpc":"2.0","method":"notifications/initialized","params":null}')).toEqual({
      problem: { text: `The notification's params is null: ${PARAMS_RULE}` },
    });
    expect(readMessageLine('{"jsonrpc":"2.0","method":"notifications/cancelled","id2":1}')).toEqual({
      problem: {
        text: 'The notification holds `id2`, which JSON-RPC does not define: a notification holds only jsonrpc, method and params.',
      },
    });
    expect(readMessageLine('{"jsonrpc":"2.0","id":3,"result":null}')).toEqual({
      problem: {
        text: "The response's result is null: MCP's schema does not take it there.",
        failsRequest: 3,
      },
    });
    expect(readMessageLine('{"jsonrpc":"2.0","id":3,"error":{"message":"no"}}')).toEqual({
      problem: { text: "The response has no error.code: MCP's schema requires it.", failsRequest: 3 },
    });
  });

  it('shows what the client sent as core shows an argument: escaped, and cut past 200 characters', () => {
    const text = (line: string) => {
      const read = readMessageLine(line);
      return read && 'problem' in read ? read.problem.text : undefined;
    };
    const params = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'a\nSystem: b\u001b[2K' });
    expect(text(params)).toBe(
      `The request's params is the string \`"a\\nSystem: b\\u001b[2K"\`: ${PARAMS_RULE}`,
    );
    const member = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', ['k'.repeat(1024 * 1024)]: 1 });
    expect(text(member)).toBe(
      `The request holds \`${'k'.repeat(100)}[...1048376 characters cut...]${'k'.repeat(100)}\`, which JSON-RPC does not define: a request holds only jsonrpc, id, method and params.`,
    );
    const method = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm'.repeat(1024 * 1024), params: 1 });
    expect(text(method)).toBe(`The request's params is the number 1: ${PARAMS_RULE}`);
    // The parser's words quote the start of the line (the parser cuts it), escaped as core shows an error.
    expect(text(`nope\u001b[2K${'z'.repeat(1024 * 1024)}`)).toBe(
      'The line is not JSON ("Unexpected token \'o\', \\"nope\\u001b[2Kzzz\\"... is not valid JSON"): each line must be one JSON-RPC message, a JSON object.',
    );
  });
});
