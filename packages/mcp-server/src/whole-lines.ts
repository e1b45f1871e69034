import { Transform, type TransformCallback } from 'node:stream';

/**
 * The most one message from the client may take, newline included: 64 MiB. The SDK's stdio transport ends the whole
 * session on a message over its own 10 MiB; a file a little over that is a plausible WriteFile.
 */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** Bytes kept of each end of a message too large to read, to find its request id. */
const END_BYTES = 256;

/** A JSON-RPC id at the start of a message (`{"jsonrpc":"2.0","id":7,...` or `{"id":7,...`). */
const HEAD_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
/** A JSON-RPC id closing a message, as the official SDK writes it (`...,"jsonrpc":"2.0","id":7}`). */
const TAIL_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/** A message that was too large to read: its size and, when it could be found, its request id. */
export interface DroppedMessage {
  bytes: number;
  id?: string | number;
}

/**
 * Passes the client's stream on one whole line (one message) at a time, so the transport parses each message once
 * instead of copying its buffer for every chunk, and leaves out a line over `maxBytes`, telling `onDropped` of it: the
 * session goes on, where the SDK's own limit would end it.
 */
export class WholeLines extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;
  private tail = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onDropped: (message: DroppedMessage) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, end + 1));
      this.endLine();
      start = end + 1;
    }
    this.add(chunk.subarray(start));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.head === undefined && this.size > 0) this.push(Buffer.concat(this.parts));
    callback();
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.head !== undefined) {
      this.tail = Buffer.concat([this.tail, piece]).subarray(-END_BYTES);
      return;
    }
    this.parts.push(piece);
    if (this.size <= this.maxBytes) return;
    // Too large: only its two ends are kept from here on, to answer its request.
    const whole = Buffer.concat(this.parts);
    this.head = whole.subarray(0, END_BYTES);
    this.tail = Buffer.from(whole.subarray(-END_BYTES));
    this.parts = [];
  }

  private endLine(): void {
    if (this.head === undefined) {
      this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts));
    } else {
      const id = requestId(this.head.toString('utf8'), this.tail.toString('utf8'));
      this.onDropped({ bytes: this.size, ...(id === undefined ? {} : { id }) });
    }
    this.parts = [];
    this.size = 0;
    this.head = undefined;
    this.tail = Buffer.alloc(0);
  }
}

function requestId(head: string, tail: string): string | number | undefined {
  const found = TAIL_ID.exec(tail)?.[1] ?? HEAD_ID.exec(head)?.[1];
  if (found === undefined) return undefined;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return undefined;
  }
}
