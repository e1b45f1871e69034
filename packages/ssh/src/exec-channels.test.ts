import { describe, expect, test } from 'vitest';
import { ExecChannels } from './exec-channels.js';

describe('ExecChannels', () => {
  test('a refused program waits for one of ours to close, and is refused for good when none of ours is there', async () => {
    const channels = new ExecChannels(50);
    expect(channels.slot()).toBeUndefined();
    channels.asked();
    let woken = false;
    const waiting = channels.slot()!.then(() => (woken = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(woken).toBe(false);
    channels.closed();
    await waiting;
    expect(woken).toBe(true);
  });

  test('right after one of ours closed, a refusal with none of ours left asks again after a pause, for a while', async () => {
    const channels = new ExecChannels(200);
    channels.asked();
    channels.closed();
    // The server may still count the one that closed: worth asking again, not EAGAIN yet.
    const retry = channels.slot();
    expect(retry).toBeInstanceOf(Promise);
    await retry;
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Long after: the cap is not ours.
    expect(channels.slot()).toBeUndefined();
  });
});
