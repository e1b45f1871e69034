import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import { forwardingFileSystem, it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { FIRST_READ_BYTES, LoneCrCounter } from './lone-cr-counter.js';

/** Where the counter's first read of a file without a BOM ends: a `\r` there is told lone or not by the next read. */
const FIRST_READ_END = FIRST_READ_BYTES + 3;

describe('LoneCrCounter', () => {
  it('counts the lone \\r before an offset, not those of \\r\\n', async ({ workspace }) => {
    const file = await workspace.write('a.txt', 'a\rb\r\nc\r\rd\ne\n');
    const counter = new LoneCrCounter(workspace.runtime().fs, undefined);
    expect(await counter.before(file, 0)).toBe(0);
    expect(await counter.before(file, 5)).toBe(1);
    expect(await counter.before(file, 10)).toBe(3);
  });

  it('tells a \\r at the end of one read by the first byte of the next', async ({ workspace }) => {
    const text = (next: string) => `${'x'.repeat(FIRST_READ_END - 1)}\r${next}${'y'.repeat(1000)}\nz\n`;
    const lone = await workspace.write('lone.txt', text('x'));
    const crlf = await workspace.write('crlf.txt', text('\n'));
    const counter = new LoneCrCounter(workspace.runtime().fs, undefined);
    expect(await counter.before(lone, 10)).toBe(0);
    expect(await counter.before(lone, FIRST_READ_END + 1002)).toBe(1);
    expect(await counter.before(crlf, 10)).toBe(0);
    expect(await counter.before(crlf, FIRST_READ_END + 1001)).toBe(0);
  });

  it('counts in what ripgrep searched: after a UTF-8 BOM, in its transcoding of UTF-16', async ({
    workspace,
  }) => {
    const bom = await workspace.write('bom.txt', Buffer.from('\uFEFFa\rb\nc\n'));
    const utf16 = await workspace.write(
      'utf16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('é\rb\nc\rd\ne\n', 'utf16le')]),
    );
    const counter = new LoneCrCounter(workspace.runtime().fs, undefined);
    expect(await counter.before(bom, 4)).toBe(1);
    expect(await counter.before(utf16, 5)).toBe(1);
    expect(await counter.before(utf16, 9)).toBe(2);
  });

  it('reads on past a short read, which only 0 bytes ends (SFTP answers in packets)', async ({
    workspace,
  }) => {
    const file = await workspace.write('a.txt', `${'x'.repeat(100)}\r${'y'.repeat(100)}\n`);
    const base = workspace.runtime().fs;
    const fs: FileSystem = {
      ...forwardingFileSystem(base),
      open: async (path, mode) => {
        const handle = await base.open(path, mode);
        // Every other call as the handle's own (a class's methods keep their `this`).
        return Object.assign(Object.create(handle) as OpenFile, {
          read: (buffer: Uint8Array, offset: number, length: number, position: number) =>
            handle.read(buffer, offset, Math.min(length, 16), position),
        });
      },
    };
    expect(await new LoneCrCounter(fs, undefined).before(file, 150)).toBe(1);
  });

  it('leaves ripgrep’s numbers to a file it cannot read', async ({ workspace }) => {
    expect(
      await new LoneCrCounter(workspace.runtime().fs, undefined).before(workspace.at('gone.txt'), 4),
    ).toBe(0);
  });
});
