import path from 'node:path';
import { FileHistory } from '@kimi-tools/core';
import { backendHas, readBytes, test, testFileSystem } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { MAX_EDIT_FILE_BYTES } from './limits.js';
import { StrReplaceFile } from './str-replace-file.js';

/** The kit's test, with `streamed`: a StrReplaceFile that streams every non-empty file. */
const it = test.extend('streamed', ({ runtime }) => new StrReplaceFile(runtime, { streamAboveBytes: 1 }));

/** What a call returned and left on disk, to compare the two paths. */
async function outcomeOf(tool: StrReplaceFile, file: string, edit: object) {
  const result = await tool.call({ path: file, edit });
  return {
    isError: result.isError,
    message: result.message,
    brief: result.brief,
    output: result.output,
    extras: result.extras,
    display: result.display,
    bytes: (await readBytes(await testFileSystem(), file)).toString('hex'),
  };
}

function encoded(text: string, encoding: string): Buffer {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  if (encoding === 'latin1') return Buffer.from(text.replaceAll('中', 'ü'), 'latin1');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf16le-bom'
    ? Buffer.concat([Buffer.from([0xff, 0xfe]), le])
    : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
}

const LINES = ['alpha', 'beta gamma', '', '  indented', 'é中', 'alpha beta', 'x'];

describe('streamed edits', () => {
  it.runIf(backendHas('slow'))(
    'write the same bytes and report the same as the in-memory path (property)',
    async ({ workspace, runtime }) => {
      const inMemory = new StrReplaceFile(runtime);
      const streamed = new StrReplaceFile(runtime, { streamAboveBytes: 1 });
      const file = fc.record({
        lines: fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 30 }),
        ending: fc.constantFrom('\n', '\r\n'),
        finalBreak: fc.boolean(),
        encoding: fc.constantFrom('utf8', 'utf16le-bom', 'utf16be-bom', 'latin1'),
      });
      const edit = fc.record({
        old: fc.constantFrom('alpha', 'beta', 'gamma\nx', 'x', 'alpha beta\n', 'é中\n', '\n\n', 'beta gamma'),
        new: fc.constantFrom('', 'ALPHA', 'one\ntwo', 'x'),
        replace_all: fc.boolean(),
      });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(file, edit, async (spec, change) => {
          const text = spec.lines.join(spec.ending) + (spec.finalBreak ? spec.ending : '');
          const bytes = encoded(text, spec.encoding);
          run++;
          const a = await workspace.write(`a${run}.txt`, bytes, { readBy: runtime });
          const b = await workspace.write(`b${run}.txt`, bytes, { readBy: runtime });
          const expected = await outcomeOf(inMemory, a, change);
          const actual = await outcomeOf(streamed, b, change);
          const rename = (value: unknown) =>
            JSON.parse(JSON.stringify(value).replaceAll(`a${run}.txt`, `b${run}.txt`));
          expect(actual).toEqual(rename(expected));
        }),
        { numRuns: 80 },
      );
    },
  );

  it('keep bytes outside the match, a CRLF file edited with \\n strings, and the history', async ({
    workspace,
    approval,
  }) => {
    const history = new FileHistory({ directory: workspace.outside('history') });
    const runtime = workspace.runtime({ approval, history, readBeforeWrite: false });
    const tool = new StrReplaceFile(runtime, { streamAboveBytes: 8 });
    const before = 'one\r\ntwo\r\nthree\r\nmixed\nlast';
    const file = await workspace.write('crlf.txt', before);
    const result = await tool.call({ path: 'crlf.txt', edit: { old: 'two\nthree', new: '2\n3\n3b' } });
    expect(result).toMatchObject({
      isError: false,
      message:
        'File successfully edited. Applied 1 edit(s) with 1 total replacement(s). Edit 1 matched after normalising line endings.',
      output: '     1\tone\n     2\t2\n     3\t3\n     4\t3b\n     5\tmixed\n     6\tlast',
    });
    expect(await workspace.read(file)).toBe('one\r\n2\r\n3\r\n3b\r\nmixed\nlast');
    const [entry] = history.list(file);
    expect(entry?.size).toBe(before.length);
    await history.restore(file);
    expect(await workspace.read(file)).toBe(before);
  });

  it('replace every match in windows of their own, numbered and cut as the in-memory path does', async ({
    workspace,
    runtime,
    streamed,
  }) => {
    const lines = Array.from(
      { length: 3000 },
      (_, index) => `${index % 100 === 50 ? 'target' : 'line'} ${index + 1} ${'padding '.repeat(6)}`,
    );
    const content = lines.join('\n') + '\n';
    const file = await workspace.write('many.txt', content, { readBy: runtime });
    const copy = await workspace.write('copy.txt', content, { readBy: runtime });
    const edit = { old: 'target', new: 'hit', replace_all: true };
    const result = await streamed.call({ path: 'many.txt', edit });
    const inMemory = await new StrReplaceFile(runtime).call({ path: 'copy.txt', edit });
    expect(result.message).toMatch(/ The output is cut at 8192 bytes: read lines \d+-2954 for the rest\.$/);
    expect(result.message).toBe(inMemory.message);
    expect(result.output).toBe(inMemory.output);
    expect(result.display).toHaveLength(30);
    expect(result.display?.[29]).toMatchObject({ oldStart: 2948, newStart: 2948 });
    expect(await workspace.read(file)).toBe(await workspace.read(copy));
  });

  it("show one summary block when the windows' diffs are over the display budget together", async ({
    workspace,
    runtime,
    streamed,
  }) => {
    const line = (index: number) => `${index % 20 === 10 ? 'target' : 'line'} ${'x'.repeat(400)}`;
    const lines = Array.from({ length: 6000 }, (_, index) => line(index));
    const file = await workspace.write('wide.txt', lines.join('\n'), { readBy: runtime });
    const result = await streamed.call({
      path: 'wide.txt',
      edit: { old: 'target', new: 'hit', replace_all: true },
    });
    expect(result.extras).toMatchObject({ replacements: 300 });
    expect(result.display).toEqual([
      {
        type: 'diff',
        path: file,
        oldText: '(300 places)',
        newText: '(300 places, modified)',
        oldStart: 1,
        newStart: 1,
        isSummary: true,
      },
    ]);
    expect(await workspace.read(file)).toBe(lines.map((text) => text.replace('target', 'hit')).join('\n'));
  });

  it('list an ambiguous match with its lines', async ({ workspace, runtime, streamed }) => {
    await workspace.write('amb.txt', 'a\nkey\nb\nkey\nc\n', { readBy: runtime });
    expect(await streamed.call({ path: 'amb.txt', edit: { old: 'key', new: 'k' } })).toMatchObject({
      isError: true,
      message:
        'Edit 1: found 2 matches of the old string (at lines 2, 4). Provide more surrounding context to make it unique, or set replace_all to true.',
      brief: 'Ambiguous match',
    });
  });

  it('refuse a change made while the approval was pending', async ({ workspace, runtime }) => {
    const file = await workspace.write('race.txt', 'one\ntwo\n', { readBy: runtime });
    const racing = workspace.runtime({
      readBeforeWrite: false,
      approval: {
        request: async () => {
          await workspace.write(file, 'one\ntwo\nthree\n');
          return { kind: 'approve' };
        },
      },
    });
    const tool = new StrReplaceFile(racing, { streamAboveBytes: 1 });
    expect(await tool.call({ path: 'race.txt', edit: { old: 'two', new: '2' } })).toMatchObject({
      isError: true,
      brief: 'File modified',
    });
    expect(await workspace.read(file)).toBe('one\ntwo\nthree\n');
  });
});

describe('a file beyond the string limit (sparse)', () => {
  it.runIf(backendHas('huge-files'))(
    'is scanned, never read whole: NUL bytes past the sample refuse it as memory refuses them, a list of edits too',
    async ({ workspace }) => {
      const runtime = workspace.runtime({ readBeforeWrite: false });
      const tool = new StrReplaceFile(runtime);
      const file = path.join(workspace.workDir, 'huge.log');
      await workspace.write(file, 'first line\n'.repeat(8000));
      await workspace.truncate(file, MAX_EDIT_FILE_BYTES + 1024);
      const rssBefore = process.memoryUsage().rss;
      // The sparse tail reads as NUL bytes: binary, as reading the file whole would find it.
      const notText = {
        isError: true,
        message: '`huge.log` is not a valid text file in a supported encoding; it was not changed.',
        brief: 'Unsupported encoding',
      };
      expect(await tool.call({ path: 'huge.log', edit: { old: 'first  line', new: 'x' } })).toMatchObject(
        notText,
      );
      const edits = [
        { old: 'first line', new: 'b' },
        { old: 'c', new: 'd' },
      ];
      expect(await tool.call({ path: 'huge.log', edit: edits })).toMatchObject(notText);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(128 * 1024 * 1024);
    },
  );
});

describe('a streamed edit in the session', () => {
  it('leaves a later, different edit of the file streamed: only a repeat goes to memory', async ({
    workspace,
    runtime,
    streamed,
  }) => {
    // Change observers are given whole files, so only the in-memory path tells them: a quiet observer means streamed.
    let told = 0;
    runtime.changeObservers.add({ name: 'watch', changeApplied: () => void told++ });
    const file = await workspace.write('log.txt', 'a\nb\nc\n', { readBy: runtime });
    const first = { old: 'a', new: 'A' };
    expect((await streamed.call({ path: 'log.txt', edit: first })).isError).toBe(false);
    expect((await streamed.call({ path: 'log.txt', edit: { old: 'c', new: 'C' } })).isError).toBe(false);
    expect(told).toBe(0);
    expect(await workspace.read(file)).toBe('A\nb\nC\n');
    expect(await streamed.call({ path: 'log.txt', edit: first })).toMatchObject({
      isError: false,
      message:
        'File unchanged: the edit(s) were already applied by an earlier call in this session (edit 1 at line 1). Nothing was written.',
    });
  });

  it('is logged, so the same call again is a replay, as in memory', async ({
    workspace,
    runtime,
    streamed,
  }) => {
    await workspace.write('log.txt', 'a\nanchor()\nc\n', { readBy: runtime });
    const edit = { old: 'anchor()', new: 'anchor()\nadded()' };
    expect((await streamed.call({ path: 'log.txt', edit })).isError).toBe(false);
    expect(await streamed.call({ path: 'log.txt', edit })).toMatchObject({
      isError: false,
      message:
        'File unchanged: the edit(s) were already applied by an earlier call in this session (edit 1 at line 2). Nothing was written.',
    });
  });
});
