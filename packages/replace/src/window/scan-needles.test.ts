import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { scanNeedles, type ScanOptions } from './scan-needles.js';
import { copyWithRanges } from './copy-with-ranges.js';
import { createTextStreamCheck } from '@kimi-tools/core/toolkit';

const it = test;

const UTF16LE = { unit: 2, lf: Buffer.from('\n', 'utf16le'), cr: Buffer.from('\r', 'utf16le') };

function options(overrides: Partial<ScanOptions>): ScanOptions {
  return {
    start: 2,
    breaks: UTF16LE,
    keep: 10,
    check: createTextStreamCheck({ encoding: 'utf-16le' }),
    chunkBytes: 5,
    ...overrides,
  };
}

describe('scanNeedles', () => {
  it('counts lines right when its chunks end inside a UTF-16 code unit (a \\r\\n is one break)', async ({
    workspace,
  }) => {
    const text = 'ab\r\ncd\r\nef\r\nTARGET\r\n';
    const file = await workspace.write(
      'u16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const handle = await workspace.fs.open(file, 'read');
    try {
      const size = (await handle.stat()).size;
      for (const chunkBytes of [3, 5, 7, 9]) {
        const found = await scanNeedles(
          handle,
          size,
          [Buffer.from('TARGET', 'utf16le'), Buffer.from('d', 'utf16le')],
          options({ chunkBytes }),
        );
        expect({ chunkBytes, found }).toEqual({
          chunkBytes,
          found: {
            text: true,
            hits: [
              { starts: [26], lines: [4], count: 1 },
              { starts: [12], lines: [2], count: 1 },
            ],
          },
        });
      }
    } finally {
      await handle.close();
    }
  });

  it('stops with the abort reason between chunks when the call is cancelled', async ({ workspace }) => {
    const file = await workspace.write('big.txt', 'line\n'.repeat(100));
    const handle = await workspace.fs.open(file, 'read');
    try {
      const controller = new AbortController();
      controller.abort(new Error('cancelled by the user'));
      const scan = scanNeedles(
        handle,
        500,
        [Buffer.from('x')],
        options({
          start: 0,
          breaks: { unit: 1, lf: Buffer.from('\n'), cr: Buffer.from('\r') },
          check: createTextStreamCheck({ encoding: 'utf-8' }),
          signal: controller.signal,
        }),
      );
      await expect(scan).rejects.toThrow('cancelled by the user');
    } finally {
      await handle.close();
    }
  });
});

describe('copyWithRanges', () => {
  it('stops with the abort reason between chunks when the call is cancelled', async ({ workspace }) => {
    const source = await workspace.fs.open(await workspace.write('source.txt', 'a'.repeat(64)), 'read');
    const targetPath = await workspace.write('target.txt', '');
    const target = await workspace.fs.open(targetPath, 'update');
    try {
      const controller = new AbortController();
      controller.abort(new Error('cancelled by the user'));
      const ranges = [{ start: 10, end: 11, bytes: Buffer.from('B') }];
      const copy = copyWithRanges(source, 64, ranges, target, { chunkBytes: 8, signal: controller.signal });
      await expect(copy).rejects.toThrow('cancelled by the user');
      // Without the signal the same copy completes: the refusal above is the cancellation, not the copy.
      await copyWithRanges(source, 64, ranges, target, { chunkBytes: 8 });
      expect(await workspace.read(targetPath)).toBe(`${'a'.repeat(10)}B${'a'.repeat(53)}`);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
