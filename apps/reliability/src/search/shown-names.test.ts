import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { allTools, type Tools } from '../support/all-tools.js';
import { report } from '../support/report.js';

// docs/paths.md#how-paths-are-shown: whatever Glob and Grep show for a file, given back to ReadFile, StrReplaceFile
// or WriteFile, names that file and no other (issue 29: a file named `a<TAB>b.py` and one named `a\tb.py` were both
// listed as `a\tb.py`, and the tab file could not be reached at all). Each odd name lies beside the plain names it
// could be confused with; the test never computes a shown form itself, it only feeds back what the tools show.

/** Every C0 control character but NUL (no name holds one), DEL, every C1 control, and the other characters escaped. */
const CONTROL_CHARACTERS = [
  ...Array.from({ length: 0x1f }, (_, index) => index + 1),
  ...Array.from({ length: 0x21 }, (_, index) => index + 0x7f),
  0x061c,
  0x200e,
  0x200f,
  0x2028,
  0x2029,
  ...Array.from({ length: 5 }, (_, index) => index + 0x202a),
  ...Array.from({ length: 4 }, (_, index) => index + 0x2066),
].map((code) => String.fromCharCode(code));

/** How the escaping before issue 29 showed a character: `\n`, `\r`, `\t`, else `\u` and four hex digits. */
function oldEscape(character: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return named[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * The letters that follow a backslash in an escape of JSON, JavaScript or C, and the quotes and backslash (`\/` is
 * JSON's too, but no name holds a `/`).
 */
const ESCAPE_LETTERS = ['n', 'r', 't', 'b', 'f', 'v', 'a', 'e', '0', 'x', 'u', 'U', '"', '\\', "'"];
const ESCAPED_AS: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\u0001',
};

/** The odd names, each beside the plain names that read like it. */
function oddNames(): string[] {
  const names = new Set<string>();
  for (const character of CONTROL_CHARACTERS) {
    names.add(`a${character}b.txt`);
    names.add(`a${oldEscape(character)}b.txt`);
  }
  for (const letter of ESCAPE_LETTERS) {
    names.add(`c\\${letter}d.txt`);
    names.add(`c${ESCAPED_AS[letter] ?? letter}d.txt`);
  }
  for (const name of [
    '"q.txt',
    'q.txt',
    '"q.txt"',
    '"',
    '""',
    '"a\\tb.txt"',
    '"\\u0041.txt"',
    'A.txt',
    "'q.txt'",
    'x"y.txt',
    '\\"q.txt',
    '"q\t.txt',
  ])
    names.add(name);
  return [...names];
}

/** What each file holds at first: a marker of its own, so a read shows which file a name reached. */
const markerOf = (index: number) => `file-${index}-marker`;

describe.runIf(process.platform !== 'win32')(
  'odd names shown by Glob and Grep lead back to their file',
  () => {
    test('through ReadFile, StrReplaceFile and WriteFile, and no other file changes', async ({
      workspace,
      runtime,
    }) => {
      const names = oddNames();
      const files = names.map((name) => `odd/${name}`);
      await workspace.writeAll(
        Object.fromEntries(files.map((file, index) => [file, `${markerOf(index)}\n`])),
      );
      const tools: Tools = allTools(runtime);
      const text = async (tool: string, args: Record<string, unknown>) => {
        const result = await tools[tool]!.call(args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}: ${result.message}`).toBe(false);
        return typeof result.output === 'string' ? result.output : '';
      };
      const lines = (output: string) => (output === '' ? [] : output.split('\n'));

      // What each tool shows for the files: one entry per line, each file once.
      const globbed = lines(await text('Glob', { pattern: 'odd/*' }));
      const grepped = lines(await text('Grep', { pattern: 'marker', path: 'odd' })).map(
        (shown) => `odd/${shown}`,
      );
      const content = lines(await text('Grep', { pattern: 'marker', output_mode: 'content' }));
      const counted = lines(await text('Grep', { pattern: 'marker', output_mode: 'count_matches' }));
      for (const shown of [globbed, grepped, content, counted]) expect(shown).toHaveLength(files.length);
      const fromContent = content.map((line) => line.replace(/:1:file-\d+-marker$/, ''));
      const fromCounts = counted.map((line) => line.replace(/:1$/, ''));

      /** Which file a shown name reaches, by the marker ReadFile reads from it. */
      const reached = async (shown: string) => {
        const output = await text('ReadFile', { path: shown });
        return Number(/file-(\d+)-marker/.exec(output)?.[1]);
      };
      const everyFile = files.map((_, index) => index);
      for (const shown of [globbed, grepped, fromContent, fromCounts]) {
        const indexes = await Promise.all(shown.map(reached));
        expect(indexes.sort((a, b) => a - b)).toEqual(everyFile);
      }

      // Glob's names, given to the write tools: each file is edited and appended to once, through its own name, so a
      // name that reached another file leaves one file edited twice (the second edit finds no `marker`) and its own not.
      for (const shown of globbed) {
        await text('StrReplaceFile', { path: shown, edit: { old: 'marker', new: 'edited' } });
        await text('WriteFile', { path: shown, content: 'written\n', mode: 'append' });
      }
      const onDisk = await Promise.all(
        files.map((file) => fs.readFile(path.join(workspace.workDir, file), 'utf8')),
      );
      expect(onDisk).toEqual(files.map((_, index) => `file-${index}-edited\nwritten\n`));
      expect((await fs.readdir(workspace.at('odd'))).sort()).toEqual([...names].sort());
      report('shown names', { names: names.length, shown: 4 * files.length, edits: 2 * files.length });
    });
  },
);
