import { describe, expect, it } from 'vitest';
import { hashBytes, hashBytesBesideIo } from './content-hash.js';

describe('hashBytesBesideIo', () => {
  it('gives the hash of the whole, over several of its MiB steps and for no bytes at all', async () => {
    const data = Buffer.alloc((5 << 20) + 3);
    for (let at = 0; at < data.length; at += 4099) data[at] = at & 0xff;
    expect(await hashBytesBesideIo(data)).toBe(hashBytes(data));
    expect(await hashBytesBesideIo(data.subarray(0, 1 << 20))).toBe(hashBytes(data.subarray(0, 1 << 20)));
    expect(await hashBytesBesideIo(new Uint8Array())).toBe(hashBytes(new Uint8Array()));
  });

  it('lets the event loop turn while it hashes', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const hashing = hashBytesBesideIo(Buffer.alloc(3 << 20, 1));
    expect(turned).toBe(false);
    await hashing;
    expect(turned).toBe(true);
  });
});
