import type { ToolReturnValue } from '@kimi-tools/core';
import { createCheckpoints, Rewind } from '@kimi-tools/checkpoints';
import { escapeForDisplay } from '@kimi-tools/core/toolkit';
import { ApplyPatch } from '@kimi-tools/patch';
import { recordingApproval, test, type TempWorkspace } from '@kimi-tools/test-kit';
import { afterAll, describe, expect } from 'vitest';
import { allTools, type Tools } from '../support/all-tools.js';
import { report } from '../support/report.js';

// docs/paths.md#names-in-a-line: every name a tool shows must work as input and lead back to exactly one file. Each
// answer below is read as a model reads it, by the line format its page documents (a quoted name is a JSON string;
// a plain one ends at the line's first separator), and every name read is given back to ReadFile, which must answer
// with that file's own line.

/** Names that break a line format, look like another name, or look like a line's parts. */
const NASTY = [
  'a -> b.txt',
  'a: b.txt',
  'a, b.txt',
  'a:12:b',
  'a:',
  '12',
  '12:3:',
  'a-12-b',
  'v-1',
  'log-2024-01.txt',
  'plain-name.txt',
  '-rf',
  '--',
  'a"b',
  '"q.txt',
  '"t\\tb"',
  't\tb',
  'x\\y',
  'back\\',
  'nl\nx',
  'dot.',
  'trail ',
  ' lead',
  'caf\u00e9.txt',
  'cafe\u0301.txt',
  'a`b.txt',
  "it's",
  'a (add), b',
  `long-${'n'.repeat(200)}`,
  's -> t/f: g',
];

/** Each file's one line: `line of <index>`, so the answer of a read says which file it reached. */
const lineOf = (index: number) => `line of <${index}>`;

/** Names read back from answers in this file's run, for the figures line. */
let readBacks = 0;

/** The index of the file `shown` reaches through ReadFile, or the answer when it reaches none. */
async function reached(tools: Tools, shown: string): Promise<number | string> {
  readBacks += 1;
  const result = await tools['ReadFile']!.call({ path: shown });
  const found = /line of <(\d+)>/.exec(String(result.output));
  return found ? Number(found[1]) : `${shown}: ${result.message}`;
}

/**
 * The shown name at the start of `text` and what follows it, as docs/paths.md says to read one: a JSON string when
 * it starts with `"`, else everything up to the first match of `separator`.
 */
function splitName(text: string, separator: RegExp): { shown: string; rest: string } {
  if (text.startsWith('"')) {
    let at = 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    return { shown: text.slice(0, at + 1), rest: text.slice(at + 1) };
  }
  const match = separator.exec(text);
  const end = match ? match.index : text.length;
  return { shown: text.slice(0, end), rest: text.slice(end) };
}

/** A list of names joined by `, `, read name by name. */
function splitList(text: string, after = /, |$/): string[] {
  const names: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const { shown, rest: next } = splitName(rest, after);
    names.push(shown);
    rest = next.replace(/^, /, '');
  }
  return names;
}

/** Writes every nasty name, the one at `index` holding `before`, {@link lineOf} `index` and `after`. */
async function writeNames(workspace: TempWorkspace): Promise<void> {
  await workspace.mkdir('s -> t');
  await workspace.writeAll(
    Object.fromEntries(NASTY.map((name, index) => [name, `before\n${lineOf(index)}\nafter\n`])),
  );
}

/** For each line of an answer: the index its own text names and the index its name reaches. */
async function readBack(
  tools: Tools,
  lines: readonly { shown: string; line: number | undefined }[],
): Promise<{ shown: string; line: number | undefined; reached: number | string }[]> {
  return Promise.all(lines.map(async (line) => ({ ...line, reached: await reached(tools, line.shown) })));
}

const indexIn = (text: string) => {
  const found = /line of <(\d+)>/.exec(text);
  return found ? Number(found[1]) : undefined;
};

describe.runIf(process.platform !== 'win32')('every name a tool shows leads back to its file', () => {
  afterAll(() => report('shown names', { names: NASTY.length, 'names read back': readBacks }));

  test('a Did you mean hint spells out the name that reads as the one refused (NFC and NFD)', async ({
    workspace,
  }) => {
    await workspace.write('cafe\u0301.txt', `${lineOf(0)}\n`);
    const tools = allTools(workspace.runtime());
    const answer = await tools['ReadFile']!.call({ path: 'caf\u00e9.txt' });
    const offered = /Did you mean: (.*)\?$/s.exec(answer.message)?.[1];
    expect(offered, answer.message).toBe('"cafe\\u0301.txt"');
    expect(await reached(tools, offered!)).toBe(0);
  });

  test("WriteFile's created directories", async ({ workspace }) => {
    const tools = allTools(workspace.runtime());
    const answer = await tools['WriteFile']!.call({ path: 'a, b/c: d/f.txt', content: `${lineOf(0)}\n` });
    const listed = /Created directories: (.*)\.$/s.exec(answer.message)?.[1];
    const directories = splitList(listed ?? '');
    expect(directories).toHaveLength(2);
    for (const directory of directories) {
      const read = await tools['ReadFile']!.call({ path: directory });
      expect(read.message, directory).toMatch(/^`[^`]+` is not a file\. It is a directory holding:/);
    }
    expect(await reached(tools, `${directories[1]}/f.txt`)).toBe(0);
  });

  test('Glob and Grep in files mode: one name a line', async ({ workspace }) => {
    await writeNames(workspace);
    const tools = allTools(workspace.runtime());
    for (const answer of [
      await tools['Glob']!.call({ pattern: '**', include_dirs: false }),
      await tools['Grep']!.call({ pattern: 'line of' }),
    ]) {
      const names = String(answer.output).split('\n');
      const indexes = await Promise.all(names.map((shown) => reached(tools, shown)));
      expect(indexes.sort((a, b) => Number(a) - Number(b))).toEqual(NASTY.map((_name, index) => index));
    }
  });

  test('Grep content and count lines split at the path', async ({ workspace }) => {
    await writeNames(workspace);
    const tools = allTools(workspace.runtime());
    const grep = tools['Grep']!;
    const answers: [Record<string, unknown>, (line: string) => { shown: string; rest: string }][] = [
      // `{path}:{line}:{text}`: a plain name ends at the first `:`.
      [{ output_mode: 'content' }, (line) => splitName(line, /:/)],
      // `{path}:{text}`.
      [{ output_mode: 'content', '-n': false }, (line) => splitName(line, /:/)],
      // Context lines too, `{path}-{line}-{text}`: a plain name ends at the first `:` or `-{line}-`.
      [{ output_mode: 'content', '-C': 1 }, (line) => splitName(line, /:|-\d+-/)],
      // Without numbers, `{path}-{text}`: at the first `:` or `-`.
      [{ output_mode: 'content', '-C': 1, '-n': false }, (line) => splitName(line, /[:-]/)],
      // `{path}:{count}`.
      [{ output_mode: 'count_matches' }, (line) => splitName(line, /:/)],
    ];
    for (const [params, split] of answers) {
      const answer = await grep.call({ pattern: 'line of', ...params });
      const lines = String(answer.output)
        .split('\n')
        .filter((line) => line !== '--')
        .map((line) => {
          const { shown, rest } = split(line);
          return { shown, line: indexIn(rest), rest };
        });
      const results = await readBack(tools, lines);
      for (const result of results) {
        expect(typeof result.reached, `${JSON.stringify(params)} ${result.shown}`).toBe('number');
        // A matching line's text names the file its name must reach.
        if (result.line !== undefined)
          expect([params, result.shown, result.reached]).toEqual([params, result.shown, result.line]);
      }
      // A count line's rest is `:{count}`, a context line's `-{line}-{text}`: the split found the line's parts.
      for (const line of lines) expect(line.rest, `${JSON.stringify(params)} ${line.shown}`).toMatch(/^[:-]/);
      expect(new Set(results.map((result) => result.reached)).size).toBe(NASTY.length);
    }
  });

  test("ReadFile's directory listing, joined to its directory", async ({ workspace }) => {
    await writeNames(workspace);
    const tools = allTools(workspace.runtime());
    for (const directory of ['.', '"s -> t"']) {
      const answer = await tools['ReadFile']!.call({ path: directory });
      const listed = answer.message.split('\n').slice(1, -1);
      const files = listed.filter((name) => !name.endsWith('/'));
      const indexes = await Promise.all(files.map((name) => reached(tools, `${directory}/${name}`)));
      expect(
        indexes.every((index) => typeof index === 'number'),
        indexes.join('\n'),
      ).toBe(true);
      expect(new Set(indexes).size).toBe(files.length);
    }
  });

  test('the names a Did you mean hint offers', async ({ workspace }) => {
    await writeNames(workspace);
    const tools = allTools(workspace.runtime());
    for (const missing of ['a, b.tx', 'a (add), c', 'a -> b.tx']) {
      const answer = await tools['ReadFile']!.call({ path: missing });
      const offered = /Did you mean: (.*)\?$/s.exec(answer.message)?.[1];
      expect(offered, answer.message).toBeDefined();
      const indexes = await Promise.all(splitList(offered!).map((shown) => reached(tools, shown)));
      expect(
        indexes.every((index) => typeof index === 'number'),
        indexes.join('\n'),
      ).toBe(true);
    }
  });

  test('a name between backticks in a message', async ({ workspace }) => {
    await writeNames(workspace);
    const tools = allTools(workspace.runtime());
    for (const [index, name] of NASTY.entries()) {
      // Not read yet: `{path}` has not been read yet. The name is given as Glob shows it.
      const answer = await tools['StrReplaceFile']!.call({
        path: escapeForDisplay(name),
        edit: { old: 'before', new: 'x' },
      });
      expect(answer.message.startsWith('`')).toBe(true);
      const { shown, rest } = splitName(answer.message.slice(1), /`/);
      expect(rest, name).toMatch(/^` has not been read yet/);
      expect(await reached(tools, shown)).toBe(index);
    }
  });

  test("ApplyPatch's result, approval and failure lines", async ({ workspace }) => {
    await writeNames(workspace);
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval, readBeforeWrite: false });
    const tools = allTools(runtime);
    // `{path}: chunk 1 does not match the file...`, one line per failing file.
    const failing = ['a: b.txt', 'a, b.txt', 'a -> b.txt', 'a`b.txt'];
    const failed = await new ApplyPatch(runtime).call({
      patch: [
        '*** Begin Patch',
        ...failing.flatMap((name) => [`*** Update File: ${name}`, '@@', '-no such line', '+x']),
        '*** End Patch',
      ].join('\n'),
    });
    const failureLines = failed.message.split('\n').filter((line) => line.includes('chunk 1 does not match'));
    expect(failureLines, failed.message).toHaveLength(failing.length);
    for (const [index, line] of failureLines.entries()) {
      const { shown, rest } = splitName(line, /: /);
      expect(rest, line).toMatch(/^: chunk 1 does not match/);
      expect(await reached(tools, shown)).toBe(NASTY.indexOf(failing[index]!));
    }

    const moves = NASTY.filter((name) => !name.includes('/') && !/^\s|\s$|\n/.test(name)).slice(0, 6);
    const patch = [
      '*** Begin Patch',
      ...moves.flatMap((name, index) => [
        `*** Update File: ${JSON.stringify(name)}`,
        `*** Move to: ${JSON.stringify(`moved: ${index} -> x, y`)}`,
        '@@',
        '-before',
        '+BEFORE',
      ]),
      '*** End Patch',
    ].join('\n');
    const answer = await new ApplyPatch(runtime).call({ patch });
    expect(answer.isError, answer.message).toBe(false);
    // `R {old} -> {new}`: the old name is gone, the new one holds the old one's line.
    const lines = answer.message.split('\n').slice(1);
    expect(lines).toHaveLength(moves.length);
    for (const [index, line] of lines.entries()) {
      expect(line.startsWith('R ')).toBe(true);
      const old = splitName(line.slice(2), / -> /);
      expect(old.rest.startsWith(' -> '), line).toBe(true);
      const moved = splitName(old.rest.slice(4), /$/);
      expect(moved.rest, line).toBe('');
      expect(await reached(tools, moved.shown)).toBe(NASTY.indexOf(moves[index]!));
      expect(await reached(tools, old.shown)).toMatch(/does not exist/);
    }
  });

  test("ApplyPatch's approval description splits into its moves", async ({ workspace }) => {
    await workspace.writeAll({ 'a -> b': 'one\n', 'c, d': 'two\n' });
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval, readBeforeWrite: false });
    await new ApplyPatch(runtime).call({
      patch: [
        '*** Begin Patch',
        '*** Update File: a -> b',
        '*** Move to: e: f',
        '@@',
        '-one',
        '+ONE',
        '*** Delete File: c, d',
        '*** End Patch',
      ].join('\n'),
    });
    const listed = approval.requests[0]!.description.replace(/^Apply patch to 2 files: /, '');
    const first = splitName(listed, / -> /);
    const second = splitName(first.rest.slice(' -> '.length), / \(move\)/);
    const third = splitName(second.rest.slice(' (move), '.length), / \(delete\)/);
    expect([first.shown, second.shown, third.shown, third.rest]).toEqual([
      '"a -> b"',
      '"e: f"',
      '"c, d"',
      ' (delete)',
    ]);
  });

  test("ApplyPatch's lines for files changed while it waited", async ({ workspace }) => {
    const names = ['a: b.txt', 'nl\nx'];
    await workspace.writeAll(Object.fromEntries(names.map((name, index) => [name, `${lineOf(index)}\n`])));
    const approval = recordingApproval(async () => {
      for (const name of names) await workspace.write(name, `${lineOf(names.indexOf(name))}\nchanged\n`);
      return { kind: 'approve' };
    });
    const runtime = workspace.runtime({ approval, readBeforeWrite: false });
    const tools = allTools(runtime);
    const answer = await new ApplyPatch(runtime).call({
      patch: [
        '*** Begin Patch',
        ...names.flatMap((name) => [
          `*** Update File: ${JSON.stringify(name)}`,
          '@@',
          `-${lineOf(names.indexOf(name))}`,
          '+x',
        ]),
        '*** End Patch',
      ].join('\n'),
    });
    const lines = answer.message.split('\n').slice(0, names.length);
    for (const [index, line] of lines.entries()) {
      const { shown, rest } = splitName(line, /: /);
      expect(rest, line).toMatch(/^: `.*` has been modified since it was last read/);
      expect(await reached(tools, shown)).toBe(index);
    }
  });

  test("Rewind's approval and result lines", async ({ workspace }) => {
    const from = 'a -> b: c, d';
    await workspace.write(from, `${lineOf(0)}\n`);
    const approval = recordingApproval();
    const runtime = workspace.runtime({ approval, readBeforeWrite: false });
    const checkpoints = createCheckpoints(runtime, { dir: workspace.outside('store') });
    const checkpoint = await checkpoints.create();
    const patched = await new ApplyPatch(runtime).call({
      patch: `*** Begin Patch\n*** Update File: ${JSON.stringify(from)}\n*** Move to: e -> f\n@@\n-${lineOf(0)}\n+${lineOf(0)}\n*** End Patch`,
    });
    expect(patched.isError, patched.message).toBe(false);
    const answer: ToolReturnValue = await new Rewind(runtime).call({ checkpoint: checkpoint.id });
    expect(answer.isError, answer.message).toBe(false);
    // `Rewind 1 file to checkpoint {id}: {from} -> {path} (renamed)`
    const described = approval.requests.at(-1)!.description.replace(/^Rewind 1 file to checkpoint \d+: /, '');
    const old = splitName(described, / -> /);
    const now = splitName(old.rest.slice(' -> '.length), / \(renamed\)$/);
    expect([old.shown, now.shown, now.rest]).toEqual(['"a -> b: c, d"', '"e -> f"', ' (renamed)']);
    // `{from}: renamed to {path} since the checkpoint, moved back`
    const line = answer.message.split('\n')[1]!;
    const { shown, rest } = splitName(line, /: /);
    expect(rest).toBe(': renamed to "e -> f" since the checkpoint, moved back');
    expect(await reached(allTools(runtime), shown)).toBe(0);
  });
});
