import { backendHas, test } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { expect } from 'vitest';
import { expectSameOutcome, streamedCall } from './__fixtures__/streamed-call.js';
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
