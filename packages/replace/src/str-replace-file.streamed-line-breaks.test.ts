import type { ToolRuntime } from '@kimi-tools/core';
import { test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { bothPaths, expectSameOutcome, streamedCall } from './__fixtures__/both-paths.js';
import type { EditMatch } from './match/types.js';
import { WINDOW_REACH_BYTES } from './window/window-ranges.js';
import { DEFAULT_WINDOW_TUNING, type WindowTuning } from './window/window-tuning.js';
import { StrReplaceFile } from './str-replace-file.js';

const it = test;

// Windows of the match's own line only, so that a window starts right after the line break before the match.
const SMALL: WindowTuning = {
  ...DEFAULT_WINDOW_TUNING,
  chunkBytes: 1,
  windowReachBytes: 4,
  windowContextLines: 0,
};

/**
 * The bytes the edit leaves, once the streamed path (in `tuning`) is seen to leave them and answer as the in-memory
 * path does.
 */
async function agreedBytes(
  workspace: TempWorkspace,
  runtime: ToolRuntime,
  name: string,
  bytes: Uint8Array,
  edit: object,
  mode: EditMatch,
  tuning: WindowTuning = SMALL,
): Promise<Buffer> {
  const streamedFile = await workspace.write(`s-${name}`, bytes, { readBy: runtime });
  const memoryFile = await workspace.write(`m-${name}`, bytes, { readBy: runtime });
  const memory = await new StrReplaceFile(runtime, { match: mode }).call({ path: `m-${name}`, edit });
  const streamed = await streamedCall(runtime, `s-${name}`, edit, mode, tuning);
  // As the differential property compares them.
  await expectSameOutcome(
    { result: streamed, file: streamedFile, name: `s-${name}` },
    { result: memory, file: memoryFile, name: `m-${name}` },
  );
  expect(memory.isError).toBe(false);
  return Buffer.from(await workspace.bytes(memoryFile));
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

// Found by the differential property on seed 1537765539: a window starting right after a lone `\r` did not see it, and
// wrote the new line break as `\n`, which made that `\r` and it one `\r\n` (a line less than the model wrote).

/**
 * `text` after a line longer than a window reaches, edited by both paths with the default windows: what follows the
 * long line in the file both wrote (they must agree, snippets aside).
 */
async function afterLongLine(
  workspace: TempWorkspace,
  runtime: ToolRuntime,
  file: string,
  text: string,
  edit: { old: string; new: string },
): Promise<string> {
  const long = 'x'.repeat(WINDOW_REACH_BYTES + 100);
  const { streamed, memory } = await bothPaths(workspace, runtime, file, `${long}${text}`, edit, {
    snippets: false,
  });
  expect(streamed).toEqual(memory);
  const written = memory.bytes.toString('latin1');
  expect(written.startsWith(long)).toBe(true);
  return written.slice(long.length);
}

describe('a line break written right after a lone \\r before the window', () => {
  it('is written as \\r, as in memory, so that the two stay two line breaks', async ({
    workspace,
    runtime,
  }) => {
    const bytes = await agreedBytes(
      workspace,
      runtime,
      'lone-cr.txt',
      Buffer.from('\n\raa'),
      { old: 'a', new: '\n' },
      'first',
    );
    expect(bytes.toString('hex')).toBe('0a0d0d61');
  });

  it('wherever the scan chunks end', async ({ workspace, runtime }) => {
    for (const chunkBytes of [1, 2, 3, 4, 5]) {
      const bytes = await agreedBytes(
        workspace,
        runtime,
        `chunk-${chunkBytes}.txt`,
        Buffer.from('x\n\rab\n\n'),
        { old: 'a', new: '\n' },
        'unique',
        { ...SMALL, chunkBytes },
      );
      expect(bytes.toString('latin1')).toBe('x\n\r\rb\n\n');
    }
  });

  it('in UTF-16 of both byte orders', async ({ workspace, runtime }) => {
    const le = await agreedBytes(
      workspace,
      runtime,
      'le.txt',
      utf16le('\n\raa'),
      { old: 'a', new: '\n' },
      'first',
    );
    expect(le).toEqual(utf16le('\n\r\ra'));
    const be = await agreedBytes(
      workspace,
      runtime,
      'be.txt',
      utf16be('\n\raa'),
      { old: 'a', new: '\n' },
      'first',
    );
    expect(be).toEqual(utf16be('\n\r\ra'));
  });

  it('at every match of replace_all', async ({ workspace, runtime }) => {
    const bytes = await agreedBytes(
      workspace,
      runtime,
      'all.txt',
      Buffer.from('x\rab\rab\n\n\n'),
      { old: 'a', new: '\n', replace_all: true },
      'unique',
    );
    expect(bytes.toString('latin1')).toBe('x\r\rb\r\rb\n\n\n');
  });

  it("in a CRLF file, as the file's \\r\\n", async ({ workspace, runtime }) => {
    const bytes = await agreedBytes(
      workspace,
      runtime,
      'crlf.txt',
      Buffer.from('a\r\n\rb\r\nc\r\n'),
      { old: 'b', new: 'B\n' },
      'unique',
    );
    expect(bytes.toString('latin1')).toBe('a\r\n\rB\r\n\r\nc\r\n');
  });

  it('after a line longer than a window reaches, with the default windows', async ({
    workspace,
    runtime,
  }) => {
    const tail = await afterLongLine(workspace, runtime, 'long.txt', '\rab\n', { old: 'a', new: '\n' });
    expect(tail).toBe('\r\rb\n');
  });
});

describe('a whole line deleted between a lone \\r before the window and a \\n', () => {
  it('leaves two line breaks, as in memory, not one \\r\\n', async ({ workspace, runtime }) => {
    const bytes = await agreedBytes(
      workspace,
      runtime,
      'between.txt',
      Buffer.from('X\rab\n\n'),
      { old: 'ab\n', new: '' },
      'unique',
    );
    expect(bytes.toString('latin1')).toBe('X\r\r');
  });

  it('after a line longer than a window reaches, with the default windows', async ({
    workspace,
    runtime,
  }) => {
    const tail = await afterLongLine(workspace, runtime, 'long-between.txt', '\rab\n\nz', {
      old: 'ab\n',
      new: '',
    });
    expect(tail).toBe('\r\rz');
  });
});

// Found by the differential property on seed 2010594751 (its default): a window of a UTF-16 file reaching an odd
// number of bytes past its hit was cut inside a code unit, and no longer decoded.
describe('a window of a UTF-16 file whose reach is an odd number of bytes', () => {
  it('ends on a code unit, and edits as in memory', async ({ workspace, runtime }) => {
    const bytes = utf16be('aéaaa\r\naaa');
    const tuning = { ...SMALL, windowReachBytes: 11 };
    const written = await agreedBytes(
      workspace,
      runtime,
      'odd.txt',
      bytes,
      { old: 'é', new: '' },
      'unique',
      tuning,
    );
    expect(written).toEqual(utf16be('aaaa\r\naaa'));
  });
});
