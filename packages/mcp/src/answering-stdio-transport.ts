import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readMessageLine } from './read-message-line.js';

/** Options of {@link AnsweringStdioTransport}. */
export interface AnsweringStdioTransportOptions {
  /** The most bytes of a message read before the session is ended, as the SDK's transport does (default 10 MiB). */
  maxBufferSize?: number;
}

const LINE_FEED = 10;

/**
 * The SDK's `StdioServerTransport` (messages as lines of JSON on `input` and `output`, the same bytes for every message
 * it takes), except that a line it would drop unanswered is answered: the SDK's transport checks each line against
 * MCP's schema before the server sees it, and a request it refuses (`"params": null`, no `method`, a line that is not
 * JSON) got no answer at all, so its client waited for its own timeout. Here such a line gets the JSON-RPC error
 * JSON-RPC prescribes, in words (`readMessageLine`), in the order the lines came, without waiting for calls in
 * progress; the server's `onerror` is told the same words, a notification's or a response's too, and a malformed
 * response fails the server's request it names with them (an approval form answered `"result": null` is rejected at
 * once rather than after its ten-minute timeout). A transport of its
 * own, not a wrapper: the SDK's tells its `onerror` the schema's error and never the line, so no id is left to answer.
 */
export class AnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBufferSize: number;
  private buffer: Buffer | undefined;
  private started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: AnsweringStdioTransportOptions = {},
  ) {
    this.maxBufferSize = options.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  /** Starts reading `input` (`Server.connect` calls it). */
  async start(): Promise<void> {
    if (this.started) throw new Error('AnsweringStdioTransport already started: Server.connect starts it.');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  /** Stops reading `input` and tells the server the session is over. */
  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    // Paused only when no one else reads it, as the SDK's transport does.
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.buffer = undefined;
    this.onclose?.();
  }

  /** Writes `message` as one line of JSON, settled once `output` takes it. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer): void => {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let line = this.nextLine(); line !== undefined; line = this.nextLine()) this.receive(line);
  };

  /** The next whole line buffered, without its line feed (none once `close` has dropped the buffer). */
  private nextLine(): string | undefined {
    const end = this.buffer?.indexOf(LINE_FEED) ?? -1;
    if (this.buffer === undefined || end === -1) return undefined;
    const line = this.buffer.toString('utf8', 0, end);
    this.buffer = this.buffer.subarray(end + 1);
    return line;
  }

  private receive(line: string): void {
    try {
      const read = readMessageLine(line);
      if (read === undefined) return;
      if ('message' in read) return this.onmessage?.(read.message);
      const { text, answer, failsRequest } = read.problem;
      if (answer) {
        void this.write({ jsonrpc: '2.0', id: answer.id, error: { code: answer.code, message: text } });
      }
      this.onerror?.(new Error(text));
      if (failsRequest !== undefined) {
        this.onmessage?.({
          jsonrpc: '2.0',
          id: failsRequest,
          error: { code: ErrorCode.InvalidRequest, message: text },
        });
      }
    } catch (error) {
      // What the server's handling throws is its error, not the client's: reported, and the next line is read.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
