import { rm } from 'node:fs/promises';
import { ReadFile } from '@kimi-tools/read';
import { Glob, Grep, GREP_OUTPUT_MODES } from '@kimi-tools/search';
import { createTempWorkspace } from '@kimi-tools/test-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iterations } from '../support/iterations.js';
import { report } from '../support/report.js';

// Hostile families for Glob and Grep (docs/grep.md, docs/glob.md): a secret guessed bit by bit through Grep's
// answers, file names that would split or rewrite the output, patterns that make a backtracking matcher run forever.

const ORACLE_CASES = iterations(12, 400);
const NAME_CASES = iterations(20, 600);
const PATTERN_CASES = iterations(40, 2_000);

/** A reference wildcard matcher (`*`, `?`, letters), dynamic programming over pattern × name: never backtracks. */
function referenceMatch(pattern: string, name: string): boolean {
  let row = Array.from({ length: name.length + 1 }, (_, index) => index === 0);
  for (const token of pattern) {
    const next = Array.from({ length: name.length + 1 }, () => false);
    if (token === '*') next[0] = row[0] as boolean;
    for (let index = 1; index <= name.length; index++) {
      if (token === '*') next[index] = (next[index - 1] as boolean) || (row[index] as boolean);
      else next[index] = (row[index - 1] as boolean) && (token === '?' || token === name[index - 1]);
    }
    row = next;
  }
  return row[name.length] as boolean;
}

describe('Grep is no oracle on sensitive content', () => {
  it('answers a right and a wrong guess of a secret alike', async () => {
    const workspace = await createTempWorkspace();
    let compared = 0;
    try {
      await workspace.writeAll({ 'a.txt': 'KEY=<unset>\n', 'deep/dir/.env.local': '' });
      await workspace.symlink('alias.cfg', '.env');
      const grep = new Grep(workspace.runtime());
      await fc.assert(
        fc.asyncProperty(
          fc.stringMatching(/^[A-Za-z0-9]{4,16}$/),
          fc.integer({ min: 1, max: 16 }),
          fc.constantFrom(...GREP_OUTPUT_MODES),
          fc.constantFrom('.', 'deep', '.env', 'alias.cfg', 'deep/dir/.env.local'),
          async (secret, known, output_mode, path) => {
            await workspace.write('.env', `KEY=${secret}\n`);
            await workspace.write('deep/dir/.env.local', `KEY=${secret}\n`);
            const prefix = secret.slice(0, Math.min(known, secret.length));
            const wrong = `${prefix.slice(0, -1)}${prefix.endsWith('~') ? '^' : '~'}`;
            const answer = async (pattern: string) => grep.call({ pattern, path, output_mode });
            expect(await answer(`KEY=${prefix}`)).toEqual(await answer(`KEY=${wrong}`));
            compared++;
          },
        ),
        { numRuns: ORACLE_CASES },
      );
    } finally {
      await workspace.cleanup();
    }
    report('search oracle', { cases: ORACLE_CASES, compared });
  });
});

describe('file names with control characters', () => {
  it('stay one escaped entry per line in Glob and Grep, which ReadFile takes back', async () => {
    const workspace = await createTempWorkspace();
    let names = 0;
    try {
      const grep = new Grep(workspace.runtime());
      const glob = new Glob(workspace.runtime());
      const read = new ReadFile(workspace.runtime());
      await fc.assert(
        fc.asyncProperty(
          fc
            .array(
              fc.oneof(
                fc.integer({ min: 1, max: 0x1f }),
                // DEL, C1, separators, bidi, and what the quoted form uses: a quote, a backslash, escape letters.
                fc.constantFrom(0x7f, 0x85, 0x2028, 0x202e, 0x61, 0x22, 0x5c, 0x6e, 0x74, 0x75),
              ),
              {
                minLength: 1,
                maxLength: 6,
              },
            )
            .map((codes) => `n${String.fromCharCode(...codes)}.txt`)
            .filter((name) => !name.includes('/')),
          async (name) => {
            await workspace.write(`case/${name}`, 'zebra\n');
            try {
              const listed = await glob.call({ pattern: 'case/*' });
              const found = await grep.call({ pattern: 'zebra', path: 'case' });
              for (const output of [listed.output, found.output]) {
                expect(typeof output).toBe('string');
                const lines = (output as string).split('\n');
                expect(lines).toHaveLength(1);
                // eslint-disable-next-line no-control-regex -- no raw control or bidi character may be shown
                expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
              }
              // The name as Glob shows it reads that file (docs/paths.md#how-paths-are-shown).
              const shown = await read.call({ path: listed.output as string });
              expect(shown).toMatchObject({ isError: false, output: '     1\tzebra\n' });
              names++;
            } finally {
              await rm(workspace.at(`case/${name}`));
            }
          },
        ),
        { numRuns: NAME_CASES },
      );
    } finally {
      await workspace.cleanup();
    }
    report('search control-character names', { cases: NAME_CASES, names });
  });
});

describe('Glob patterns against long names', () => {
  it('match in bounded time, as a non-backtracking reference does', async () => {
    const workspace = await createTempWorkspace();
    const files = ['a'.repeat(200), `${'ab'.repeat(99)}b`, `${'a'.repeat(120)}${'b'.repeat(80)}`];
    let matched = 0;
    try {
      await workspace.writeAll(Object.fromEntries(files.map((file) => [file, ''])));
      const glob = new Glob(workspace.runtime());
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom('a', 'b', '*', '?', '*a', 'a*'), { minLength: 1, maxLength: 12 }),
          async (parts) => {
            const pattern = parts.join('');
            const result = await glob.call({ pattern, include_dirs: false });
            expect(result.isError).toBe(false);
            const expected = files.filter((file) => referenceMatch(pattern, file)).sort();
            expect(result.output === '' ? [] : (result.output as string).split('\n')).toEqual(expected);
            matched += expected.length;
          },
        ),
        { numRuns: PATTERN_CASES },
      );
    } finally {
      await workspace.cleanup();
    }
    report('search glob patterns', { cases: PATTERN_CASES, matched });
  });
});
