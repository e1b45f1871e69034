import { afterEach, describe, expect, it } from 'vitest';
import { REPLAY_EXHAUSTED_STATUS, startReplayServer, type ReplayServer } from './replay-server.js';

let server: ReplayServer | undefined;
afterEach(() => server?.close());

describe('startReplayServer', () => {
  it('answers requests with the recorded responses in order and records each request', async () => {
    server = await startReplayServer([{ body: { n: 1 } }, { status: 400, body: { n: 2 } }]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const first = await fetch(`${server.url}/v1/things?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: JSON.stringify({ ask: 'a' }),
    });
    const second = await fetch(`${server.url}/other`, { method: 'POST', body: 'not json' });

    expect([first.status, await first.json()]).toEqual([200, { n: 1 }]);
    expect([second.status, await second.json()]).toEqual([400, { n: 2 }]);
    expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/v1/things?x=1', body: { ask: 'a' } },
      { method: 'POST', path: '/other', body: 'not json' },
    ]);
    expect(server.requests[0]?.headers['x-test']).toBe('yes');
  });

  it('answers what refuse refuses with its answer, and the next request taken with the next recorded response', async () => {
    server = await startReplayServer([{ body: { n: 1 } }, { body: { n: 2 } }], {
      refuse: (request) => (request.path === '/bad' ? { status: 400, body: { refused: true } } : undefined),
    });

    const answers = [];
    for (const path of ['/good', '/bad', '/good']) {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', body: '{}' });
      answers.push([response.status, await response.json()]);
    }

    expect(answers).toEqual([
      [200, { n: 1 }],
      [400, { refused: true }],
      [200, { n: 2 }],
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(['/good', '/bad', '/good']);
  });

  it('answers a request past the recorded ones with an error status', async () => {
    server = await startReplayServer([]);
    const response = await fetch(`${server.url}/v1/x`);
    expect(response.status).toBe(REPLAY_EXHAUSTED_STATUS);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toBeUndefined();
  });
});
