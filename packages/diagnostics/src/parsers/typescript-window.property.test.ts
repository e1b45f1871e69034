import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../problem.js';
import type { ScriptLanguage } from './script-languages.js';
import { checkScript, reparseWindow } from './typescript-problems.js';

// A window reparse must find exactly what a parse of the whole file finds: random edits of real scripts, made of the
// pieces that move statement boundaries (brackets, comments, quotes, template literals, `await`, JSX, line breaks).

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../corpus');

/** Statements of every kind a window must re-align after: ASI, generics, arrow functions, regexes, templates. */
const TRICKY = `#!/usr/bin/env node
import { a } from './a';
let x = a
(1 + 2).toString()
const re = /[/]+\\//g
const f = <T,>(value: T) => value
const t = \`one \${x} two \${\`nested \${x}\`}\`
label: for (const k of [1, 2]) { if (k) break label }
async function g() { await f(1); return x < 2 > (3) }
class C<T> extends Array<T> { #p = 1; static { this.name } }
/* a comment
spanning lines */
type U = { a: 1 } | [b: 2]
enum E { A = 1, B }
declare module 'm' { export const y: number }
export default x
`;

const SCRIPTS: { name: string; language: ScriptLanguage; text: string }[] = [
  ...['inventory.ts', 'broken-inventory.ts'].map((name) => ({
    name,
    language: 'typescript' as const,
    text: readFileSync(path.join(CORPUS, 'typescript', name), 'utf8'),
  })),
  ...['Panel.tsx', 'broken-Panel.tsx'].map((name) => ({
    name,
    language: 'tsx' as const,
    text: readFileSync(path.join(CORPUS, 'tsx', name), 'utf8'),
  })),
  ...['queue.js', 'broken-queue.js'].map((name) => ({
    name,
    language: 'javascript' as const,
    text: readFileSync(path.join(CORPUS, 'javascript', name), 'utf8'),
  })),
  { name: 'tricky.ts', language: 'typescript', text: TRICKY },
  {
    name: 'tricky.tsx',
    language: 'tsx',
    text: TRICKY.replace('<T,>', '<T,>') + 'const j = <div>{x}</div>\n',
  },
];

const PIECES = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  '\n',
  '\r\n',
  '\u2028',
  '/*',
  '*/',
  '//',
  '`',
  '${',
  "'",
  '"',
  '/',
  '<',
  '>',
  '=>',
  'await ',
  'await',
  'async ',
  'yield',
  'function f() {',
  'class K {',
  '<div>',
  '</div>',
  'x',
  ' ',
  ',',
  '#!',
  'export ',
  'import ',
  '@dec ',
  '?.',
  '!',
  '\\',
  '<<<<<<< HEAD\n',
  'let ',
  'of ',
  'in ',
  '0x',
  '1n',
  '.',
];

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.nat({ max: 24 }),
  insert: fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((pieces) => pieces.join('')),
});

function applyEdit(text: string, { at, remove, insert }: Edit & { at: number }): string {
  const start = Math.floor(at * text.length);
  return text.slice(0, start) + insert + text.slice(start + remove);
}

/** Problems in a fixed order: the report sorts them anyway, and a JavaScript file's TS-only errors come first. */
function sorted(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column || a.key.localeCompare(b.key));
}

describe('the window reparse of a script', () => {
  it('finds what a parse of the whole file finds, after every edit of a sequence', () => {
    let windows = 0;
    let cleanEdits = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...SCRIPTS),
        fc.array(edit, { minLength: 1, maxLength: 5 }),
        ({ name, language, text }, sequence) => {
          let current = text;
          let outline = checkScript(name, current, language, undefined).outline;
          for (const step of sequence) {
            const wasClean = outline.errors.length === 0;
            current = applyEdit(current, step);
            // TypeScript's parser fails an assertion on a few broken texts (`@dec await x`): the checker then
            // reports itself failed, whichever way it parsed, and the sequence ends there.
            let whole: ReturnType<typeof checkScript>;
            try {
              whole = checkScript(name, current, language, undefined);
            } catch {
              return;
            }
            const window = reparseWindow(name, current, outline);
            if (wasClean && whole.problems.length === 0) cleanEdits += 1;
            if (window) {
              windows += 1;
              expect(window.statements).toEqual(whole.outline.statements);
              expect(sorted(checkScript(name, current, language, outline).problems)).toEqual(
                sorted(whole.problems),
              );
            }
            outline = window ?? whole.outline;
          }
        },
      ),
      { numRuns: 400 },
    );
    // Between clean versions the window is the common case, not a path the test never takes.
    expect(windows / cleanEdits).toBeGreaterThan(0.5);
  });

  it('checks a clean edit in the middle of a large file by its window, and places an error the edit brings', () => {
    const statements = Array.from(
      { length: 2_000 },
      (_, index) => `export const value${index} = ${index};\n`,
    );
    const before = statements.join('');
    const first = checkScript('big.ts', before, 'typescript', undefined);
    expect(first.problems).toEqual([]);
    const clean = before.replace('export const value1000 = 1000;', 'export const value1000 = 1001;');
    expect(reparseWindow('big.ts', clean, first.outline)?.errors).toEqual([]);
    const broken = before.replace('export const value1000 = 1000;', 'export const value1000 = (1000;');
    expect(reparseWindow('big.ts', broken, first.outline)).toBeUndefined();
    expect(checkScript('big.ts', broken, 'typescript', first.outline).problems).toEqual([
      { line: 1001, column: 31, severity: 'error', message: "')' expected.", key: "ts1005:')' expected." },
    ]);
  });

  // Found by an attacker's differential search against an earlier version that also merged errors.
  it.each([
    { name: 'a.js', language: 'javascript', before: 'f = (x,\na;\nb;\nc;\nd;\n', old: 'd;', new: ') => x;' },
    {
      name: 'a.ts',
      language: 'typescript',
      before: 'g();\na;\nb;\nc;\n) => x;\n',
      old: 'g();',
      new: 'f = (x,',
    },
    {
      name: 'a.ts',
      language: 'typescript',
      before: '@await using/\nimport "m";\na;\nb;\nc;\nd;\n',
      old: 'c;',
      new: 'c)',
    },
    {
      name: 'a.tsx',
      language: 'tsx',
      before: 'const a = <>{/* </>;\nlet b = 1;\nlet c = 2;\nlet d = 3;\n',
      old: '3',
      new: '4',
    },
  ] as const)(
    '$before: the edit is checked as the whole file is',
    ({ name, language, before, old, new: replacement }) => {
      const previous = checkScript(name, before, language, undefined).outline;
      const after = before.replace(old, replacement);
      expect(sorted(checkScript(name, after, language, previous).problems)).toEqual(
        sorted(checkScript(name, after, language, undefined).problems),
      );
    },
  );
});
