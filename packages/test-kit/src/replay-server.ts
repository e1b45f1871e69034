import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer the server gives, in the order given: a status (default 200) and a JSON body. */
export interface ReplayResponse {
  status?: number;
  body: unknown;
}

/** A request the server received, its body parsed as JSON (or kept as text when it is not JSON). */
export interface RecordedRequest {
  method: string;
  /** The path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** Options of {@link startReplayServer}. */
export interface ReplayServerOptions {
  /**
   * How the API refuses a request it does not take (an image type it does not read): called on every request, the
   * answer it returns is sent instead of the next recorded response, which is kept for the next request taken.
   */
  refuse?: (request: RecordedRequest) => ReplayResponse | undefined;
}

/** A local HTTP server that answers with recorded responses and keeps every request it got. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`: give it (plus the API's path prefix) to a client as its `baseURL`. */
  readonly url: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** What the server answers once its recorded responses are used up: the test sent more requests than it expected. */
export const REPLAY_EXHAUSTED_STATUS = 599;

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that answers the n-th request with `responses[n]` as JSON, so an
 * official API client pointed at it with `baseURL` talks to it as to the real API. A request past the last response
 * gets status {@link REPLAY_EXHAUSTED_STATUS}; give the client `maxRetries: 0` so it fails at once. With `refuse`,
 * the server refuses what the real API would refuse, as it would.
 */
export async function startReplayServer(
  responses: readonly ReplayResponse[],
  options: ReplayServerOptions = {},
): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  let answered = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: parseJson(text),
      };
      requests.push(recorded);
      const answer = options.refuse?.(recorded) ?? responses[answered++];
      const status = answer ? (answer.status ?? 200) : REPLAY_EXHAUSTED_STATUS;
      const body = answer ? answer.body : { error: { message: 'no recorded response left' } };
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
