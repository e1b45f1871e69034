import path from 'node:path';
import type { ToolRuntime } from '@kimi-tools/core';
import { EDIT_LOG } from '@kimi-tools/core/toolkit';
import { failsWhere, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { bothPaths } from './__fixtures__/both-paths.js';
import { MAX_EDIT_FILE_BYTES } from './limits.js';
import type { EditMatch } from './match/types.js';
import type { Edit } from './params.js';
import { editStreamed } from './stream/edit-streamed.js';
import { decodeIn, encodeIn, STREAM_SAMPLE_BYTES } from './stream/stream-format.js';
import { WINDOW_REACH_BYTES } from './stream/edit-windows.js';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `streamed`: a StrReplaceFile that streams every non-empty file. */
const it = test.extend('streamed', ({ runtime }) => new StrReplaceFile(runtime, { streamAboveBytes: 1 }));

/** editStreamed as for a file over MAX_EDIT_FILE_BYTES: nothing falls back to the in-memory path. */
async function streamedOnly(
  runtime: ToolRuntime,
  workspace: TempWorkspace,
  name: string,
  bytes: Uint8Array | string,
  edits: Edit[],
  mode: EditMatch = 'unique',
) {
  const file = await workspace.write(name, bytes, { readBy: runtime });
  return {
    result: await streamedOnlyAgain(runtime, name, edits, mode),
    bytes: Buffer.from(await workspace.bytes(file)),
  };
}

/** The same as {@link streamedOnly} on the file as it now is. */
async function streamedOnlyAgain(
  runtime: ToolRuntime,
  name: string,
  edits: Edit[],
  mode: EditMatch = 'unique',
) {
  const resolved = await runtime.paths.resolveFile(name, 'edit');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const handle = await runtime.fs.open(resolved.path.real, 'read');
  try {
    const request = { runtime, sender: 'StrReplaceFile', input: name, target: resolved.path, handle };
    return await editStreamed({ ...request, edits, mode, canFallBack: false, applyIfUnrelated: true }, {});
  } finally {
    await handle.close();
  }
}

/** ASCII lines filling the format sample, so what follows is judged by the scan only. */
const ASCII_SAMPLE = 'plain ascii line\n'.repeat(Math.ceil(STREAM_SAMPLE_BYTES / 17) + 1);

describe('a streamed file that is not the text its sample says', () => {
  it('with a Latin-1 byte past the sample: edited as the in-memory path edits it (every other byte kept)', async ({
    workspace,
    runtime,
  }) => {
    const bytes = Buffer.concat([
      Buffer.from(ASCII_SAMPLE),
      Buffer.from('caf\xe9 au lait\nline\nline\nTARGET here\ntail line\n', 'latin1'),
    ]);
    const { streamed, memory } = await bothPaths(workspace, runtime, 'latin.txt', bytes, {
      old: 'TARGET',
      new: 'T',
    });
    expect(memory.isError).toBe(false);
    expect(streamed).toEqual(memory);
  });

  it('with a NUL byte past the sample: refused as the in-memory path refuses it', async ({
    workspace,
    runtime,
  }) => {
    const bytes = Buffer.concat([Buffer.from(ASCII_SAMPLE), Buffer.from('TARGET\n\0\n')]);
    const { streamed, memory } = await bothPaths(workspace, runtime, 'nul.txt', bytes, {
      old: 'TARGET',
      new: 'T',
    });
    expect(memory).toMatchObject({ isError: true, brief: 'Unsupported encoding' });
    expect(streamed).toEqual(memory);
  });

  it('too large for memory: refused with the in-memory message, nothing written', async ({
    workspace,
    runtime,
  }) => {
    const bytes = Buffer.concat([Buffer.from(ASCII_SAMPLE), Buffer.from('caf\xe9\nTARGET\n', 'latin1')]);
    const { result, bytes: after } = await streamedOnly(runtime, workspace, 'big.txt', bytes, [
      { old: 'TARGET', new: 'T', replace_all: false },
    ]);
    expect(result).toMatchObject({
      isError: true,
      message: '`big.txt` is not a valid text file in a supported encoding; it was not changed.',
      brief: 'Unsupported encoding',
    });
    expect(after.equals(bytes)).toBe(true);
  });
});

describe('a window cut at the match (no line break within reach)', () => {
  const long = 'x'.repeat(WINDOW_REACH_BYTES + 100);

  it('deleting a match that ends a long line keeps the line break after it', async ({
    workspace,
    runtime,
  }) => {
    const content = `before\n${long}DEL\nnext\n`;
    const { streamed, memory } = await bothPaths(workspace, runtime, 'end.txt', content, {
      old: 'DEL',
      new: '',
    });
    expect(memory.bytes.toString()).toBe(`before\n${long}\nnext\n`);
    // The snippet of a cut window shows the cut line from the cut on (docs), so it is left out of the comparison.
    expect({ ...streamed, output: '' }).toEqual({ ...memory, output: '' });
  });

  it('deleting a match that starts a long line keeps the line break before it', async ({
    workspace,
    runtime,
  }) => {
    const content = `before\nDEL${long}\nnext\n`;
    const { streamed, memory } = await bothPaths(workspace, runtime, 'start.txt', content, {
      old: 'DEL',
      new: '',
    });
    expect(memory.bytes.toString()).toBe(`before\n${long}\nnext\n`);
    // The snippet of a cut window shows the cut line from the cut on (docs), so it is left out of the comparison.
    expect({ ...streamed, output: '' }).toEqual({ ...memory, output: '' });
  });
});

describe('uniqueness in a file of mixed line endings', () => {
  it('counts the matches of the text the model sees, as in memory', async ({ workspace, runtime }) => {
    const content = 'one\r\na\nb\r\ntwo\r\na\r\nb\r\nthree\r\n';
    for (const old of ['a\nb', 'a\r\nb']) {
      const name = old.length === 3 ? 'lf.txt' : 'crlf.txt';
      const { streamed, memory } = await bothPaths(workspace, runtime, name, content, { old, new: 'X' });
      expect(memory).toMatchObject({ isError: true, brief: 'Ambiguous match' });
      expect(streamed).toEqual(memory);
    }
  });

  it("in `match: 'first'`, a match found only with the file's line ending must still be unique", async ({
    workspace,
    runtime,
  }) => {
    const content = 'a\r\nb\r\n' + 'filler\r\n'.repeat(10) + 'a\r\nb\r\n';
    const file = await workspace.write('first.txt', content, { readBy: runtime });
    const tool = new StrReplaceFile(runtime, { match: 'first', streamAboveBytes: 1 });
    expect(await tool.call({ path: 'first.txt', edit: { old: 'a\nb', new: 'X' } })).toMatchObject({
      isError: true,
      message:
        'Edit 1: found 2 matches of the old string (at lines 1, 13). Provide more surrounding context to make it unique, or set replace_all to true.',
    });
    expect(await workspace.read(file)).toBe(content);
  });

  it('in a file too large for memory too', async ({ workspace, runtime }) => {
    // Farther apart than a window reaches, so only the count of the whole file can see both.
    const content = 'one\r\na\rb\r\n' + 'filler\r\n'.repeat(10) + 'a\r\nb\r\n';
    const { result } = await streamedOnly(runtime, workspace, 'big.txt', content, [
      { old: 'a\nb', new: 'X', replace_all: false },
    ]);
    expect(result).toMatchObject({
      isError: true,
      message:
        'Edit 1: found 2 matches of the old string (at lines 2, 14). Provide more surrounding context to make it unique, or set replace_all to true.',
    });
  });
});

describe('an old string the encoding cannot store', () => {
  // 0x81 is undefined in windows-1252: the file is ISO-8859-1, which has no curly quotes.
  const latin1 = Buffer.from('caf\x81\xe9 "quoted" text\nline\n', 'latin1');

  it('is left to the in-memory path when the file fits', async ({ workspace, runtime }) => {
    const { streamed, memory } = await bothPaths(workspace, runtime, 'quotes.txt', latin1, {
      old: '“quoted”',
      new: '"said"',
    });
    expect(memory.isError).toBe(false);
    expect(streamed).toEqual(memory);
  });

  it('is not found in a file too large for memory', async ({ workspace, runtime }) => {
    const { result, bytes } = await streamedOnly(runtime, workspace, 'big.txt', latin1, [
      { old: '“quoted”', new: '"said"', replace_all: false },
    ]);
    expect(result).toMatchObject({
      isError: true,
      message: `Edit 1: the old string was not found in the file. No changes were made. \`big.txt\` is larger than ${MAX_EDIT_FILE_BYTES} bytes, so only exact matches are looked for (with \\n line breaks also tried as the file's own); the line-ending, quote, whitespace, indentation and line-number tolerances need a file that fits in memory. Copy old exactly from the file.`,
      brief: 'No match',
    });
    expect(bytes.equals(latin1)).toBe(true);
  });
});

describe('a replace_all over several windows', () => {
  const lines = Array.from({ length: 60 }, (_, index) => `line ${index + 1}`);
  lines[5] = 'target';
  lines[50] = 'target';
  lines[52] = '// ... existing code ...';
  const content = lines.join('\n') + '\n';
  const edit = { old: 'target', new: '// ... existing code ...', replace_all: true };

  it('judges elision on every window: a comment the file already has is its own', async ({
    workspace,
    runtime,
  }) => {
    const { streamed, memory } = await bothPaths(workspace, runtime, 'elide.txt', content, edit);
    expect(memory).toMatchObject({ isError: false, extras: { replacements: 2 } });
    expect(streamed).toEqual(memory);
  });

  it('logs the edit as the in-memory path does', async ({ workspace, runtime, streamed }) => {
    const other = { old: 'target', new: 'hit', replace_all: true };
    const a = await workspace.write('a.txt', content, { readBy: runtime });
    const b = await workspace.write('b.txt', content, { readBy: runtime });
    await streamed.call({ path: 'a.txt', edit: other });
    await new StrReplaceFile(runtime).call({ path: 'b.txt', edit: other });
    const log = runtime.slot(EDIT_LOG);
    expect(log.edits(a)).toEqual(log.edits(b));
    expect(log.edits(a)).toHaveLength(1);
  });
});

describe('a file grown between its open and its stamp', () => {
  failsWhere(it, 'sftp-early-stat')('is copied whole: the lines appended are kept', async ({ workspace }) => {
    const runtime = workspace.runtime({ readBeforeWrite: false });
    const file = await workspace.write('grown.txt', 'line one\nTARGET\nline three\n');
    const resolved = await runtime.paths.resolveFile('grown.txt', 'edit');
    if (!resolved.ok) throw new Error(resolved.error.message);
    // Opened (and sized, as the tool sizes it) before another program appends: the stamp is taken after.
    const handle = await runtime.fs.open(file, 'read');
    try {
      await workspace.append(file, 'appended by another program\n');
      const result = await editStreamed(
        {
          runtime,
          sender: 'StrReplaceFile',
          input: 'grown.txt',
          target: resolved.path,
          handle,
          edits: [{ old: 'TARGET', new: 'T', replace_all: false }],
          mode: 'unique',
          canFallBack: false,
          applyIfUnrelated: true,
        },
        {},
      );
      expect(result).toMatchObject({ isError: false });
    } finally {
      await handle.close();
    }
    expect(await workspace.read(file)).toBe('line one\nT\nline three\nappended by another program\n');
  });
});

describe('a read state the streamed path can judge', () => {
  // A NUL byte past the sample: the in-memory path, reading the file whole, would refuse it as not text.
  const bytes = Buffer.concat([Buffer.from(ASCII_SAMPLE), Buffer.from('TARGET\n\0\n')]);

  it('a file never read is refused as not read, without reading it whole', async ({ workspace, runtime }) => {
    const file = await workspace.write('unread.txt', bytes);
    const tool = new StrReplaceFile(runtime, { streamAboveBytes: 1 });
    expect(await tool.call({ path: 'unread.txt', edit: { old: 'TARGET', new: 'T' } })).toMatchObject({
      isError: true,
      brief: 'File not read',
    });
    expect(Buffer.from(await workspace.bytes(file)).equals(bytes)).toBe(true);
  });

  it('a file changed since the read with no kept text is refused as modified, without reading it whole', async ({
    workspace,
    runtime,
  }) => {
    const file = await workspace.write('changed.txt', bytes, { readBy: runtime });
    await workspace.append(file, 'more\n');
    const tool = new StrReplaceFile(runtime, { streamAboveBytes: 1 });
    expect(await tool.call({ path: 'changed.txt', edit: { old: 'TARGET', new: 'T' } })).toMatchObject({
      isError: true,
      brief: 'File modified',
    });
  });
});

describe('single-byte encodings other than Latin-1', () => {
  it('a windows-1251 file too large for memory is edited', async ({ workspace, runtime }) => {
    const format = { encoding: 'windows-1251', bom: false, lineEnding: '\n' as const };
    const text = 'Привет, как дела? Это обычный русский текст.\nЦЕЛЬ здесь\n'.repeat(3) + 'конец ЦЕЛИ\n';
    const { result, bytes } = await streamedOnly(runtime, workspace, 'cp1251.txt', encodeIn(text, format), [
      { old: 'конец ЦЕЛИ', new: 'финал', replace_all: false },
    ]);
    expect(result).toMatchObject({ isError: false });
    expect(decodeIn(bytes, format)).toBe(text.replace('конец ЦЕЛИ', 'финал'));
  });
});

describe('a cancelled streamed edit', () => {
  it('fails and leaves the file and its directory as they were', async ({ workspace, runtime, streamed }) => {
    const content = 'line one\nTARGET\nline three\n';
    const file = await workspace.write('cancel.txt', content, { readBy: runtime });
    const before = await workspace.list(path.dirname(file));
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    const result = await streamed.call(
      { path: 'cancel.txt', edit: { old: 'TARGET', new: 'T' } },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({
      isError: true,
      message: expect.stringContaining('cancelled by the user'),
    });
    expect(await workspace.read(file)).toBe(content);
    expect(await workspace.list(path.dirname(file))).toEqual(before);
  });
});

describe('replace_all in a CRLF file too large for memory', () => {
  it('looks for exact bytes only, and its not-found message says so', async ({ workspace, runtime }) => {
    const content = 'one\r\nalpha\r\nbeta\r\ntwo\r\n';
    const { result, bytes } = await streamedOnly(runtime, workspace, 'all.txt', content, [
      { old: 'alpha\nbeta', new: 'x', replace_all: true },
    ]);
    expect(result).toMatchObject({
      isError: true,
      message: `Edit 1: the old string was not found in the file. No changes were made. \`all.txt\` is larger than ${MAX_EDIT_FILE_BYTES} bytes, so only exact matches are looked for; the line-ending, quote, whitespace, indentation and line-number tolerances need a file that fits in memory. Copy old exactly from the file.`,
      brief: 'No match',
    });
    expect(bytes.toString()).toBe(content);
  });
});

describe('an edit sent again for a file too large for memory', () => {
  it('is refused, not applied a second time, while a different edit of the file still applies', async ({
    workspace,
    runtime,
  }) => {
    // An insertion after an anchor keeps its anchor: applied again, it would insert a second copy.
    const insertion = { old: 'anchor()', new: 'anchor()\nadded()', replace_all: false };
    const first = await streamedOnly(runtime, workspace, 'big.txt', 'a\nanchor()\nc\n', [insertion]);
    expect(first.result).toMatchObject({ isError: false });
    const after = 'a\nanchor()\nadded()\nc\n';
    expect(first.bytes.toString()).toBe(after);

    expect(await streamedOnlyAgain(runtime, 'big.txt', [insertion])).toMatchObject({
      isError: true,
      message: `Edit 1 is an edit this session already applied to this file. \`big.txt\` is larger than ${MAX_EDIT_FILE_BYTES} bytes: whether an edit is already applied is checked only in a file that fits in memory, so a repeated edit is not applied. No changes were made. If the change is still needed, include more of the surrounding text in old.`,
      brief: 'Invalid edit',
    });
    expect(await workspace.read(workspace.at('big.txt'))).toBe(after);

    const different = { old: 'added()', new: 'added(1)', replace_all: false };
    expect(await streamedOnlyAgain(runtime, 'big.txt', [different])).toMatchObject({
      isError: false,
    });
    expect(await workspace.read(workspace.at('big.txt'))).toBe('a\nanchor()\nadded(1)\nc\n');
  });
});
