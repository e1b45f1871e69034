import { describe, expect, it } from 'vitest';
import { errnoError } from './errno.js';
import { DESCRIPTOR_SHORTAGE_RETRIES, retryOnDescriptorShortage } from './descriptor-shortage.js';

/** An operation failing with `codes` in turn, then answering `done`; counts its calls. */
function failingThen(...codes: string[]) {
  const calls = { count: 0 };
  const operation = () => {
    const code = codes[calls.count++];
    return code === undefined ? Promise.resolve('done') : Promise.reject(errnoError(code, 'failed'));
  };
  return { operation, calls };
}

describe('retryOnDescriptorShortage', () => {
  it('tries again after EMFILE and ENFILE until the operation succeeds', async () => {
    const { operation, calls } = failingThen('EMFILE', 'ENFILE', 'EMFILE');
    await expect(retryOnDescriptorShortage(operation)).resolves.toBe('done');
    expect(calls.count).toBe(4);
  });

  it('gives up with the shortage after its retries, and at once on any other error', async () => {
    const endless = failingThen(...Array<string>(DESCRIPTOR_SHORTAGE_RETRIES + 5).fill('EMFILE'));
    await expect(retryOnDescriptorShortage(endless.operation)).rejects.toMatchObject({ code: 'EMFILE' });
    expect(endless.calls.count).toBe(DESCRIPTOR_SHORTAGE_RETRIES + 1);
    const other = failingThen('EMFILE', 'EACCES');
    await expect(retryOnDescriptorShortage(other.operation)).rejects.toMatchObject({ code: 'EACCES' });
    expect(other.calls.count).toBe(2);
  });

  it('stops waiting when the signal aborts', async () => {
    const { operation, calls } = failingThen(...Array<string>(DESCRIPTOR_SHORTAGE_RETRIES).fill('EMFILE'));
    const controller = new AbortController();
    const retried = retryOnDescriptorShortage(operation, controller.signal);
    controller.abort(new Error('stop'));
    await expect(retried).rejects.toThrow('stop');
    expect(calls.count).toBe(1);
  });
});
