import { existsSync } from 'node:fs';
import type { FileSystem } from '@kimi-tools/core';
import { forwardingFileSystem, testBackendName, test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { ReadFile } from './index.js';
import { MAX_UNSIZED_BYTES } from './limits.js';

const row = (number: number, text: string) => `${String(number).padStart(6)}\t${text}\n`;

/**
 * `base`, where every file opened reports size 0 and times that never change, whatever it holds: a `/proc` file, on
 * any backend.
 */
function reportingNoSize(base: FileSystem): FileSystem {
  const forwarded = forwardingFileSystem(base);
  return {
    ...forwarded,
    open: async (file, mode) => {
      const handle = await forwarded.open(file, mode);
      return {
        ...handle,
        read: handle.read.bind(handle),
        close: handle.close.bind(handle),
        stat: async () =>
          Object.assign(Object.create(await handle.stat()), {
            size: 0,
            mtimeMs: 0,
            mtimeNs: 0n,
            ctimeNs: 0n,
            ino: 1n,
          }),
      };
    },
  };
}

describe('ReadFile on a file that reports no size (/proc, some FUSE file systems)', () => {
  test('reads its content, forward and back, instead of an empty file', async ({ workspace }) => {
    await workspace.write('status', 'Name:\tnode\nState:\tR\nPid:\t7\n');
    const tool = new ReadFile(workspace.runtime({ fs: reportingNoSize(workspace.fs) }));
    const forward = await tool.call({ path: 'status' });
    expect(forward.output).toBe(row(1, 'Name:\tnode') + row(2, 'State:\tR') + row(3, 'Pid:\t7'));
    expect(forward.message).toBe(
      '3 lines read from file starting from line 1. Total lines in file: 3. End of file reached.',
    );
    expect((await tool.call({ path: 'status', line_offset: -1 })).output).toBe(row(3, 'Pid:\t7'));
  });

  test('is read afresh each time: no line index is kept for what it held before', async ({ workspace }) => {
    await workspace.write('loadavg', 'one\ntwo\n');
    const tool = new ReadFile(workspace.runtime({ fs: reportingNoSize(workspace.fs) }));
    expect((await tool.call({ path: 'loadavg' })).output).toBe(row(1, 'one') + row(2, 'two'));
    // The same size (0) and times are reported: only the content tells the versions apart.
    await workspace.write('loadavg', 'three\n');
    const again = await tool.call({ path: 'loadavg' });
    expect(again.output).toBe(row(1, 'three'));
    expect(again.message).toBe(
      '1 lines read from file starting from line 1. Total lines in file: 1. End of file reached.',
    );
  });

  test('a file that is truly empty still reads as empty', async ({ workspace }) => {
    await workspace.write('empty.txt', '');
    const tool = new ReadFile(workspace.runtime({ fs: reportingNoSize(workspace.fs) }));
    const result = await tool.call({ path: 'empty.txt' });
    expect([result.isError, result.output, result.message]).toEqual([
      false,
      '',
      'No lines read from file. Total lines in file: 0. End of file reached.',
    ]);
  });

  test('past the size a snapshot holds, it is refused with the reason', async ({ workspace }) => {
    await workspace.write('huge.log', Buffer.alloc(MAX_UNSIZED_BYTES + 1, 'a'));
    const tool = new ReadFile(workspace.runtime({ fs: reportingNoSize(workspace.fs) }));
    const result = await tool.call({ path: 'huge.log' });
    expect([result.isError, result.brief, result.message]).toEqual([
      true,
      'File not readable',
      '`huge.log` reports no size and holds more than 64 MiB; ReadFile reads such a file only up to that size.',
    ]);
  });

  // The real thing: Linux's /proc, read where the test runs (the local disk) or over SSH on this same host.
  test.skipIf(testBackendName() === 'memory' || !existsSync('/proc/self/status'))(
    'reads a real /proc file (Linux)',
    async ({ workspace }) => {
      const tool = new ReadFile(workspace.runtime());
      const result = await tool.call({ path: '/proc/self/status' });
      const lines = String(result.output).split('\n').slice(0, -1);
      expect(lines[0]).toMatch(/^ {5}1\tName:\t\S+$/);
      expect(result.message).toBe(
        `${lines.length} lines read from file starting from line 1. Total lines in file: ${lines.length}. End of file reached.`,
      );
    },
  );
});
