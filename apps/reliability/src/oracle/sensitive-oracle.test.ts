import { promises as fs } from 'node:fs';
import type { ToolReturnValue } from '@kimi-tools/core';
import { createTempWorkspace, type TempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../support/all-tools.js';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';

// docs/paths.md#sensitive-files: "a sensitive file's content influences no answer". A model that may not read `.env`
// must not learn it either by asking yes/no questions: an edit whose `old` is a right guess, a Grep pattern, a write
// that would leave it unchanged. The property: for the same arguments, every tool answers exactly the same whether the
// sensitive file holds one content or another (the arguments are built from the first, so they are a right guess for
// it and a wrong one for the other).

const RUNS = iterations(60, 2_000);

/** The names a model could use for the sensitive file: itself, absolute, and a symlink with an innocent name. */
const ALIAS = 'alias.txt';

let workspace: TempWorkspace;
let targets: string[];
const cases: Record<string, number> = {};

beforeAll(async () => {
  workspace = await createTempWorkspace();
  await workspace.write('notes.txt', 'hello world\nAPI_KEY is documented here\n');
  await workspace.write('.env', 'API_KEY=placeholder\n');
  await workspace.symlink(ALIAS, '.env');
  targets = ['.env', workspace.at('.env'), ALIAS];
});

afterAll(async () => {
  report('oracle checks', { ...cases });
  await workspace.cleanup();
});

/** What the model sees of a result; the approval display goes to the user, who may see the file. */
function modelView(result: ToolReturnValue): string {
  return JSON.stringify([result.isError, result.brief, result.message, result.output, result.extras ?? null]);
}

/** Puts `content` in `.env` (through the real file, so the symlink keeps pointing at it) and calls the tool afresh. */
async function answerFor(tool: string, content: Uint8Array, args: unknown): Promise<string> {
  await fs.writeFile(workspace.at('.env'), content);
  // A fresh runtime: no read state or history carried from the other content. No read-before-write, so the write
  // tools get as far as they can; every approval is granted.
  const tools = allTools(workspace.runtime({ readBeforeWrite: false }));
  const result = await (tools[tool] as { call(args: unknown): Promise<ToolReturnValue> }).call(args);
  return modelView(result);
}

/** Contents a secret file may hold: `KEY=value` lines, any text, raw bytes (not text in any encoding). */
const content: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map((value) => Buffer.from(`API_KEY=${value}\n`)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map((text) => Buffer.from(text)),
  fc.uint8Array({ minLength: 1, maxLength: 60 }),
);

/** A piece of the first content (a right guess), or any string (almost always wrong). */
function guessOf(first: Uint8Array): fc.Arbitrary<string> {
  const text = Buffer.from(first).toString('utf8');
  return fc.oneof(
    fc
      .tuple(fc.nat(text.length), fc.nat(text.length))
      .map(([a, b]) => text.slice(Math.min(a, b), Math.max(a, b)) || text),
    fc.constant(text),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
}

const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Arguments for each tool aimed at the sensitive file, built from the first content. */
const ARGUMENTS: Record<string, (target: string, guess: string) => fc.Arbitrary<unknown>> = {
  ReadFile: (path) => fc.constant({ path }),
  ReadMediaFile: (path) => fc.constant({ path }),
  WriteFile: (path, guess) =>
    fc.record({
      path: fc.constant(path),
      content: fc.constant(guess),
      mode: fc.constantFrom('overwrite', 'append'),
    }),
  StrReplaceFile: (path, guess) =>
    fc.oneof(
      fc.constant({
        path,
        edit: [
          { old: guess, new: 'X' },
          { old: 'no such text', new: 'y' },
        ],
      }),
      fc.record({
        path: fc.constant(path),
        edit: fc.record({
          old: fc.constant(guess),
          new: fc.constantFrom('X', guess),
          replace_all: fc.boolean(),
        }),
      }),
    ),
  Glob: () => fc.constantFrom({ pattern: '**' }, { pattern: '.env*' }, { pattern: '*', include_dirs: true }),
  Grep: (path, guess) =>
    fc.record({
      pattern: fc.constantFrom(escapeRegex(guess), 'API_KEY'),
      path: fc.constantFrom(path, '.'),
      output_mode: fc.constantFrom('content', 'files_with_matches', 'count_matches'),
    }),
};

/** Runs the property for one tool: the same answer for two different contents of the sensitive file. */
async function checkTool(tool: string): Promise<void> {
  const differences: string[] = [];
  const argumentsFor = ARGUMENTS[tool]!;
  const scenario = fc
    .tuple(content, content)
    .filter(([a, b]) => !Buffer.from(a).equals(Buffer.from(b)))
    .chain(([first, second]) =>
      fc.tuple(
        fc.constant(first),
        fc.constant(second),
        fc
          .tuple(fc.constantFrom(...targets), guessOf(first))
          .chain(([target, guess]) => argumentsFor(target, guess)),
      ),
    );
  await fc.assert(
    fc.asyncProperty(scenario, async ([first, second, args]) => {
      cases[tool] = (cases[tool] ?? 0) + 1;
      const answers = [await answerFor(tool, first, args), await answerFor(tool, second, args)];
      if (answers[0] === answers[1]) return true;
      differences.push(`${JSON.stringify(args)}: ${answers[0]} ≠ ${answers[1]}`);
      return false;
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  expect(differences).toEqual([]);
}

describe('a sensitive file content influences no answer', () => {
  // ReadMediaFile (refused up front since issue 21.15) and Grep (sensitive files left out silently) were found by
  // this family answering from what the file holds; they stay here as guards.
  for (const tool of ['ReadFile', 'WriteFile', 'StrReplaceFile', 'Glob', 'ReadMediaFile', 'Grep']) {
    it(tool, async () => {
      await checkTool(tool);
    });
  }
});
