import path from 'node:path';
import { createRuntime, type ToolRuntime } from '@kimi-tools/core';
import { createStreamDecoder, detectTextEncoding, EDIT_LOG, encodeText } from '@kimi-tools/core/toolkit';
import type { FileSystem, OpenFile } from '@kimi-tools/core/fs';
import {
  backendHas,
  failsWhere,
  forwardingFileSystem,
  markRead,
  readBytes,
  rewriteKeepingMtime,
  SFTP_CAPABILITIES,
  test,
  translatedRuntime,
  type TempWorkspace,
} from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { bothPaths } from './__fixtures__/both-paths.js';
import { MAX_EDIT_FILE_BYTES, MAX_REPLACEMENTS, MAX_WINDOW_BYTES } from './limits.js';
import type { Edit } from './params.js';
import { STREAM_SAMPLE_BYTES } from './window/file-format.js';
import { WINDOW_REACH_BYTES } from './window/window-ranges.js';
import { DEFAULT_WINDOW_TUNING } from './window/window-tuning.js';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `streamed`: a StrReplaceFile that reads every non-empty file in windows. */
const it = test.extend('streamed', ({ runtime }) => new StrReplaceFile(runtime, { streamAboveBytes: 1 }));

/** The tool as for a file over MAX_EDIT_FILE_BYTES: read in windows, never whole, whatever its encoding or text. */
function tooLargeForMemory(runtime: ToolRuntime): StrReplaceFile {
  return new StrReplaceFile(runtime, { streamAboveBytes: 1 }, { ...DEFAULT_WINDOW_TUNING, maxWholeBytes: 0 });
}

/** One call of {@link tooLargeForMemory} on a file written (and read) first, and the bytes it left. */
async function streamedOnly(
  runtime: ToolRuntime,
  workspace: TempWorkspace,
  name: string,
  bytes: Uint8Array | string,
  edit: Edit[] | Omit<Edit, 'replace_all'>,
) {
  const file = await workspace.write(name, bytes, { readBy: runtime });
  const result = await tooLargeForMemory(runtime).call({ path: name, edit });
  return { result, bytes: await readBytes(workspace.fs, file) };
}

/** A StrReplaceFile reading every non-empty file in windows, over `fs`, with no read needed before an edit. */
function streamedWithoutReads(workspace: TempWorkspace, fs: FileSystem): StrReplaceFile {
  const runtime = createRuntime({
    workDir: workspace.workDir,
    approval: workspace.approval,
    readBeforeWrite: false,
    fs,
  });
  return new StrReplaceFile(runtime, { streamAboveBytes: 1 });
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
    const { result, bytes: after } = await streamedOnly(runtime, workspace, 'big.txt', bytes, {
      old: 'TARGET',
      new: 'T',
    });
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
    const { result } = await streamedOnly(runtime, workspace, 'big.txt', content, { old: 'a\nb', new: 'X' });
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

  it('matches at the quotes level, read in windows as read whole', async ({ workspace, runtime }) => {
    const { streamed, memory } = await bothPaths(workspace, runtime, 'quotes.txt', latin1, {
      old: '“quoted”',
      new: '"said"',
    });
    expect(memory.isError).toBe(false);
    expect(streamed).toEqual(memory);
  });

  it('matches at the quotes level in a file too large for memory too', async ({ workspace, runtime }) => {
    const { result, bytes } = await streamedOnly(runtime, workspace, 'big.txt', latin1, {
      old: '“quoted”',
      new: '"said"',
    });
    expect(result).toMatchObject({
      isError: false,
      message:
        'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising quotes.',
    });
    expect(bytes.equals(Buffer.from('caf\x81\xe9 "said" text\nline\n', 'latin1'))).toBe(true);
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

/** `files` with the first descriptor of `name` made to run `before` ahead of its second stat (the one the stamp takes). */
function beforeSecondStat(files: FileSystem, name: string, before: () => Promise<void>): FileSystem {
  let opens = 0;
  return {
    ...files,
    open: async (file, mode) => {
      const handle = await files.open(file, mode);
      if (path.basename(file) !== name || ++opens > 1) return handle;
      let stats = 0;
      return new Proxy(handle, {
        get(opened, member, receiver) {
          const value = Reflect.get(opened, member, receiver) as unknown;
          if (typeof value !== 'function') return value;
          if (member !== 'stat') return (value as (...args: unknown[]) => unknown).bind(opened);
          return async () => {
            if (++stats === 2) await before();
            return (value as OpenFile['stat']).call(opened);
          };
        },
      });
    },
  };
}

describe('a file grown between its open and its stamp', () => {
  failsWhere(it, 'sftp-early-stat')('is copied whole: the lines appended are kept', async ({ workspace }) => {
    const file = await workspace.write('grown.txt', 'line one\nTARGET\nline three\n');
    // Opened (and sized) before another program appends: the stamp, taken after, has the new size.
    const files = beforeSecondStat(forwardingFileSystem(workspace.fs), 'grown.txt', () =>
      workspace.append(file, 'appended by another program\n'),
    );
    const tool = streamedWithoutReads(workspace, files);
    expect(await tool.call({ path: 'grown.txt', edit: { old: 'TARGET', new: 'T' } })).toMatchObject({
      isError: false,
    });
    expect(await workspace.read(file)).toBe('line one\nT\nline three\nappended by another program\n');
  });
});

describe('a directory on the way swapped for a link out of the workspace during the copy', () => {
  it('is refused as modified: nothing is written where the link leads', async ({ workspace }) => {
    const file = await workspace.write('dir/a.txt', 'value=1\n');
    const elsewhere = workspace.outside('elsewhere');
    // Another process, once the path was checked under the lock and the file stamped: the directory moved out, with
    // the file and its lock, and a link to where it went put in its place, as the temp file is made.
    let swapped = false;
    const files: FileSystem = {
      ...forwardingFileSystem(workspace.fs),
      create: async (path, mode) => {
        if (!swapped && path.includes('.kimi-tmp-')) {
          swapped = true;
          await workspace.fs.rename(workspace.at('dir'), elsewhere);
          await workspace.symlink('dir', elsewhere);
        }
        return workspace.fs.create(path, mode);
      },
    };
    const runtime = createRuntime({ workDir: workspace.workDir, approval: workspace.approval, fs: files });
    await markRead(runtime, file);
    const result = await new StrReplaceFile(runtime, { streamAboveBytes: 1 }).call({
      path: 'dir/a.txt',
      edit: { old: 'value', new: 'name' },
    });
    expect(swapped).toBe(true);
    expect(result.brief).toBe('File modified');
    expect(await workspace.read(path.join(elsewhere, 'a.txt'))).toBe('value=1\n');
    expect(await workspace.list(elsewhere)).toEqual(['a.txt']);
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
    const format = { encoding: 'windows-1251', bom: false };
    const text = 'Привет, как дела? Это обычный русский текст.\nЦЕЛЬ здесь\n'.repeat(3) + 'конец ЦЕЛИ\n';
    const { result, bytes } = await streamedOnly(runtime, workspace, 'cp1251.txt', encodeText(text, format), {
      old: 'конец ЦЕЛИ',
      new: 'финал',
    });
    expect(result).toMatchObject({ isError: false });
    expect(createStreamDecoder(format).write(bytes)).toBe(text.replace('конец ЦЕЛИ', 'финал'));
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
  it('looks for exact bytes only, as for a file read whole', async ({ workspace, runtime }) => {
    const content = 'one\r\nalpha\r\nbeta\r\ntwo\r\n';
    const edit = { old: 'alpha\nbeta', new: 'x', replace_all: true };
    const { result, bytes } = await streamedOnly(runtime, workspace, 'all.txt', content, edit);
    await workspace.write('whole.txt', content, { readBy: runtime });
    const whole = await new StrReplaceFile(runtime).call({ path: 'whole.txt', edit });
    expect(whole).toMatchObject({ isError: true, brief: 'No match' });
    expect(result).toEqual(whole);
    expect(bytes.toString()).toBe(content);
  });
});

describe('a list of edits and a replay in a file too large for memory', () => {
  it('are edited as in a file read whole: each edit on the result of the one before, a repeat recognised', async ({
    workspace,
    runtime,
  }) => {
    const filler = Array.from({ length: 40 }, (_, index) => `filler ${index}`).join('\n');
    const content = `a\nanchor()\nc\n${filler}\nlast()\n`;
    const insertion = { old: 'anchor()', new: 'anchor()\nadded()', replace_all: false };
    const edits = [
      insertion,
      // Matches only the text the first edit wrote.
      { old: 'added()\nc', new: 'added()\nC', replace_all: false },
      { old: '  last()', new: 'last(2)', replace_all: false },
    ];
    const first = await streamedOnly(runtime, workspace, 'big.txt', content, edits);
    expect(first.result).toMatchObject({
      isError: false,
      message:
        'File successfully edited. Applied 3 edit(s) with 3 total replacement(s). Edit 3 matched after normalising whitespace.',
    });
    const after = `a\nanchor()\nadded()\nC\n${filler}\nlast(2)\n`;
    expect(first.bytes.toString()).toBe(after);
    expect(await tooLargeForMemory(runtime).call({ path: 'big.txt', edit: insertion })).toMatchObject({
      isError: false,
      message:
        'File unchanged: the edit(s) were already applied by an earlier call in this session (edit 1 at line 2). Nothing was written.',
      output: '     1\ta\n     2\tanchor()\n     3\tadded()\n     4\tC\n     5\tfiller 0\n',
    });
    expect(await workspace.read('big.txt')).toBe(after);
  });
});

describe('a list of edits where an edit matches across what an earlier one wrote', () => {
  it('reads more of the file around that change, as far as the later edits may reach', async ({
    workspace,
    runtime,
  }) => {
    // Past the lines a failed edit is answered from (CLOSEST_TEXT_MAX_LINES), which would take the change in.
    const lines = Array.from({ length: 60_000 }, (_, index) => `line ${index + 1}`);
    const content = `${lines.join('\n')}\n`;
    // The second edit's old is found only in the text the first one wrote, and reaches eight lines past it.
    const edits = [
      { old: 'line 55000\n', new: 'written by the first edit\n', replace_all: false },
      {
        old: `written by the first edit\n${lines.slice(55_000, 55_008).join('\n')}`,
        new: 'joined',
        replace_all: false,
      },
    ];
    const tiny = { ...DEFAULT_WINDOW_TUNING, windowContextLines: 0 };
    const file = await workspace.write('cascade.txt', content, { readBy: runtime });
    const result = await new StrReplaceFile(runtime, { streamAboveBytes: 1 }, tiny).call({
      path: 'cascade.txt',
      edit: edits,
    });
    expect(result).toMatchObject({
      isError: false,
      message: 'File successfully edited. Applied 2 edit(s) with 2 total replacement(s).',
    });
    expect(await workspace.read(file)).toBe(
      `${[...lines.slice(0, 54_999), 'joined', ...lines.slice(55_008)].join('\n')}\n`,
    );
  });
});

describe('what a file read in windows refuses', () => {
  it('an encoding windows are not read in, in a file too large to read whole', async ({
    workspace,
    runtime,
  }) => {
    const text = '这是一个用国标码写的中文文件，里面有很多汉字。\n'.repeat(40) + '目标在这里\n';
    const bytes = encodeText(text, { encoding: 'gbk', bom: false });
    const detected = detectTextEncoding(bytes, true)?.encoding;
    expect(detected).not.toBe('utf-8');
    const { result, bytes: after } = await streamedOnly(runtime, workspace, 'gbk.txt', bytes, {
      old: '目标',
      new: '终点',
    });
    expect(result).toMatchObject({
      isError: true,
      message: `\`gbk.txt\` is larger than ${MAX_EDIT_FILE_BYTES} bytes and is encoded in ${detected}; a file this large is edited only in UTF-8, UTF-16 or a single-byte encoding. No changes were made.`,
      brief: 'Unsupported encoding',
    });
    expect(after.equals(bytes)).toBe(true);
    // Read whole when it fits, it is edited.
    const whole = await new StrReplaceFile(runtime, { streamAboveBytes: 1 }).call({
      path: 'gbk.txt',
      edit: { old: '目标', new: '终点' },
    });
    expect(whole).toMatchObject({ isError: false });
  });

  it('edits that could match at more places than the windows of one call hold', async ({
    workspace,
    runtime,
  }) => {
    const content = 'x;'.repeat(MAX_REPLACEMENTS + 2);
    const file = await workspace.write('dense.txt', content, { readBy: runtime });
    const result = await new StrReplaceFile(runtime, { streamAboveBytes: 1000 }).call({
      path: 'dense.txt',
      edit: { old: 'x', new: 'y' },
    });
    expect(result).toMatchObject({
      isError: true,
      message: `\`dense.txt\` is larger than 1000 bytes, so it is read in windows around the places the edits could match, and they could match at more places than ${MAX_WINDOW_BYTES} bytes of windows hold. No changes were made. Make old more specific: include a line that occurs rarely in the file.`,
      brief: 'Invalid edit',
    });
    expect(await workspace.read(file)).toBe(content);
  });

  it('windows over the bytes one call may hold together', async ({ workspace, runtime }) => {
    const lines = Array.from({ length: 400 }, (_, index) =>
      index % 4 === 0 ? `key ${index}` : `line ${index}`,
    );
    const content = `${lines.join('\n')}\n`;
    const file = await workspace.write('wide.txt', content, { readBy: runtime });
    const tuning = { ...DEFAULT_WINDOW_TUNING, maxWindowBytes: 1024 };
    const edit = { old: 'key', new: 'KEY', replace_all: true };
    expect(
      await new StrReplaceFile(runtime, { streamAboveBytes: 1 }, tuning).call({ path: 'wide.txt', edit }),
    ).toMatchObject({
      isError: true,
      message:
        '`wide.txt` is larger than 1 bytes, so it is read in windows around the places the edits could match, and they could match at more places than 1024 bytes of windows hold. No changes were made. Make old more specific: include a line that occurs rarely in the file.',
      brief: 'Invalid edit',
    });
    expect(await workspace.read(file)).toBe(content);
    // Within the budget, the same edit applies.
    expect(
      await new StrReplaceFile(runtime, { streamAboveBytes: 1 }).call({ path: 'wide.txt', edit }),
    ).toMatchObject({
      isError: false,
      extras: { replacements: 100 },
    });
  });
});

describe('a file read in windows and then whole (its encoding needs the whole file)', () => {
  it.runIf(backendHas('exact-times'))(
    'is judged on the bytes it edits: one rewritten after its stamp, size and time kept, is refused (SFTP)',
    async ({ workspace }) => {
      // Larger than what SFTP reads at once as it opens a file (8 reads of 261,120 bytes), so the reads reach the
      // disk over SSH too.
      const text = '这是一个用国标码写的中文文件。\n'.repeat(70_000);
      const before = encodeText(`${text}目标\n`, { encoding: 'gbk', bom: false });
      const after = encodeText(`${text}别处\n`, { encoding: 'gbk', bom: false });
      const {
        runtime: reader,
        at,
        files,
      } = translatedRuntime(workspace, { capabilities: SFTP_CAPABILITIES });
      // Reads from the file's start in the call: the stamp's hash, the format's sample, then the whole file, rewritten
      // just before it.
      let fromStart = Number.NEGATIVE_INFINITY;
      const rewriting: FileSystem = {
        ...files,
        open: async (file, mode) => {
          const handle = await files.open(file, mode);
          return new Proxy(handle, {
            get(opened, member, receiver) {
              const value = Reflect.get(opened, member, receiver) as unknown;
              if (typeof value !== 'function') return value;
              if (member !== 'read') return (value as (...args: unknown[]) => unknown).bind(opened);
              return async (...args: Parameters<OpenFile['read']>) => {
                if (args[3] === 0 && ++fromStart === 3)
                  await rewriteKeepingMtime(workspace.at('gbk.txt'), after);
                return (value as OpenFile['read']).apply(opened, args);
              };
            },
          });
        },
      };
      const runtime = createRuntime({ workDir: reader.workDir, approval: workspace.approval, fs: rewriting });
      await workspace.write('gbk.txt', before);
      await markRead(runtime, at('gbk.txt'));
      fromStart = 0;
      const tool = new StrReplaceFile(runtime, { streamAboveBytes: 1 });
      expect(await tool.call({ path: 'gbk.txt', edit: { old: '别处', new: '这里' } })).toMatchObject({
        isError: true,
        brief: 'File modified',
      });
      expect((await readBytes(workspace.fs, workspace.at('gbk.txt'))).equals(after)).toBe(true);
    },
  );
});

describe('a file changed between its scan and the read of its windows', () => {
  it('is refused as modified: a window that no longer decodes is not edited, nor the file read whole', async ({
    workspace,
  }) => {
    const content = 'alpha\nbeta TARGET gamma\ndelta\n';
    const file = await workspace.write('changing.txt', content);
    const changed = Buffer.from(content.replace('beta', 'b\xffta'), 'latin1');
    // Reads of the call: the stamp's hash, the format's sample (two: the second finds the end), the scan, then the
    // lines around the hit, changed just before.
    let reads = 0;
    const files = forwardingFileSystem(workspace.fs);
    const changing: FileSystem = {
      ...files,
      open: async (name, mode) => {
        const handle = await files.open(name, mode);
        if (mode !== 'read') return handle;
        return new Proxy(handle, {
          get(opened, member, receiver) {
            const value = Reflect.get(opened, member, receiver) as unknown;
            if (typeof value !== 'function') return value;
            if (member !== 'read') return (value as (...args: unknown[]) => unknown).bind(opened);
            return async (...args: Parameters<OpenFile['read']>) => {
              if (++reads === 5) await workspace.write(file, changed);
              return (value as OpenFile['read']).apply(opened, args);
            };
          },
        });
      },
    };
    const tool = streamedWithoutReads(workspace, changing);
    expect(await tool.call({ path: 'changing.txt', edit: { old: 'TARGET', new: 'T' } })).toMatchObject({
      isError: true,
      brief: 'File modified',
    });
    expect((await readBytes(workspace.fs, file)).equals(changed)).toBe(true);
  });
});
