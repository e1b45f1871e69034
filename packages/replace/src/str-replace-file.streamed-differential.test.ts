import { backendHas, test } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { expect } from 'vitest';
import { expectSameOutcome, streamedCall } from './__fixtures__/both-paths.js';
import { MAX_EDIT_FILE_BYTES, MAX_WINDOW_BYTES } from './limits.js';
import type { EditMatch } from './match/types.js';
import { StrReplaceFile } from './str-replace-file.js';

const it = test;

/** Pieces of text where edges go wrong: every line ending, a surrogate pair, a two-byte UTF-8 character. */
const TOKENS = ['a', 'b', 'ab', 'x', '\n', '\r\n', '\r', 'é', '😀', ' ', 'T'];
const ENCODINGS = ['utf8', 'utf8-bom', 'utf16le', 'utf16be', 'latin1'] as const;

function encoded(text: string, encoding: (typeof ENCODINGS)[number]): Buffer {
  if (encoding === 'utf8') return Buffer.from(text);
  if (encoding === 'utf8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  if (encoding === 'latin1') return Buffer.from(text, 'latin1');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf16le'
    ? Buffer.concat([Buffer.from([0xff, 0xfe]), le])
    : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
}

const file = fc.record({
  tokens: fc.array(fc.constantFrom(...TOKENS), { minLength: 2, maxLength: 40 }),
  encoding: fc.constantFrom(...ENCODINGS),
});

const tuning = fc.record({
  chunkBytes: fc.integer({ min: 1, max: 9 }),
  // At least two UTF-16 units: a `\r\n` right after a match is then within reach, as it always is at 64 KiB.
  windowReachBytes: fc.integer({ min: 4, max: 24 }),
  windowContextLines: fc.integer({ min: 0, max: 2 }),
  maxWholeBytes: fc.constant(MAX_EDIT_FILE_BYTES),
  maxWindowBytes: fc.constant(MAX_WINDOW_BYTES),
});

it.runIf(backendHas('slow'))(
  'small chunks and windows: the streamed path writes and reports what the in-memory path does (property)',
  async ({ workspace, runtime }) => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        file,
        tuning,
        fc.nat(),
        fc.nat(8),
        fc.boolean(),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 2 }),
        fc.boolean(),
        fc.constantFrom<EditMatch>('unique', 'first'),
        async (spec, sizes, from, length, lf, written, replaceAll, mode) => {
          const tokens =
            spec.encoding === 'latin1' ? spec.tokens.filter((token) => token !== '😀') : spec.tokens;
          const text = tokens.join('');
          const characters = [...text];
          if (characters.length === 0) return;
          // A piece of the file as `old`, sometimes with its line breaks as the model writes them.
          const start = from % characters.length;
          let old = characters.slice(start, start + 1 + length).join('');
          if (lf) old = old.replace(/\r\n?/g, '\n');
          const edit = {
            old,
            new: written.filter((token) => spec.encoding !== 'latin1' || token !== '😀').join(''),
            replace_all: replaceAll,
          };
          run++;
          const bytes = encoded(text, spec.encoding);
          const streamedFile = await workspace.write(`s${run}.txt`, bytes, { readBy: runtime });
          const memoryFile = await workspace.write(`m${run}.txt`, bytes, { readBy: runtime });
          const memory = await new StrReplaceFile(runtime, { match: mode }).call({
            path: `m${run}.txt`,
            edit,
          });
          let streamed;
          try {
            streamed = await streamedCall(runtime, `s${run}.txt`, edit, mode, sizes);
          } catch (error) {
            // What the tool's `call` turns into a failure (`new` the encoding cannot store): the same as in memory.
            expect(memory).toMatchObject({
              isError: true,
              message: expect.stringContaining((error as Error).message),
            });
            return;
          }
          await expectSameOutcome(
            { result: streamed, file: streamedFile, name: `s${run}.txt` },
            { result: memory, file: memoryFile, name: `m${run}.txt` },
          );
        },
      ),
      { numRuns: 250 },
    );
  },
);

const LINES = [
  'alpha',
  'beta gamma',
  '',
  '  indented',
  '\tindented',
  'say “hi”',
  'é中',
  'x',
  'alpha beta',
  'end',
];
const WRITTEN = ['', 'ALPHA', 'alpha\nalpha', 'x\ny', '  beta', 'gamma', 'say "yo"'];

/** `old` as the model may write it for `text`: as it is, re-indented, with straight quotes, or with its lines numbered. */
function looser(text: string, variant: number): string {
  if (variant === 1) return text.replace(/^/gm, '  ');
  if (variant === 2) return text.replace(/[“”]/g, '"');
  if (variant === 3)
    return text
      .split('\n')
      .map((line, index) => `${index + 7}\t${line}`)
      .join('\n');
  return text;
}

it.runIf(backendHas('slow'))(
  'small windows, a list of edits and the same list again: read in windows as read whole (property)',
  async ({ workspace, runtime }) => {
    const lines = fc.record({
      lines: fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 30 }),
      ending: fc.constantFrom('\n', '\r\n'),
    });
    // Each edit's old: one or two lines of the file, or what the edit before it wrote (a cascade), maybe loosened.
    const edit = fc.record({
      fromWritten: fc.boolean(),
      line: fc.nat(),
      count: fc.integer({ min: 1, max: 2 }),
      variant: fc.integer({ min: 0, max: 4 }),
      new: fc.constantFrom(...WRITTEN),
      replace_all: fc.boolean(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        lines,
        tuning,
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        fc.constantFrom<EditMatch>('unique', 'first'),
        async (spec, sizes, specs, mode) => {
          run++;
          const edits = specs.map((one, index) => {
            const previous = specs[index - 1]?.new;
            const start = one.line % spec.lines.length;
            const piece =
              one.fromWritten && previous ? previous : spec.lines.slice(start, start + one.count).join('\n');
            return { old: looser(piece, one.variant), new: one.new, replace_all: one.replace_all };
          });
          const text = spec.lines.join(spec.ending) + spec.ending;
          const streamedFile = await workspace.write(`ls${run}.txt`, text, { readBy: runtime });
          const memoryFile = await workspace.write(`lm${run}.txt`, text, { readBy: runtime });
          const whole = new StrReplaceFile(runtime, { match: mode });
          for (let call = 0; call < 2; call++) {
            const memory = await whole.call({ path: `lm${run}.txt`, edit: edits });
            const streamed = await streamedCall(runtime, `ls${run}.txt`, edits, mode, sizes);
            await expectSameOutcome(
              { result: streamed, file: streamedFile, name: `ls${run}.txt` },
              { result: memory, file: memoryFile, name: `lm${run}.txt` },
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  },
);
