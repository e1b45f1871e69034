import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT_PATH, loadScript, parseScript } from './script.js';

describe('parseScript', () => {
  it('accepts calls with object or JSON-text arguments, answers, expectations, say-only and user steps', () => {
    const text = JSON.stringify([
      { user: 'What is in here?' },
      { say: 'Looking around.' },
      { name: 'Glob', arguments: { pattern: '*' } },
      { name: 'ReadFile', arguments: '{"path": "a.txt"}', answer: 'n:no', expect: { isError: false } },
    ]);
    const parsed = parseScript(text, 's.json');
    expect('steps' in parsed && parsed.steps.length).toBe(4);
  });

  it('reports invalid JSON and invalid steps with where they are', () => {
    expect(parseScript('[', 's.json')).toEqual({
      error: expect.stringMatching(/^s\.json is not valid JSON: /),
    });
    const parsed = parseScript(
      JSON.stringify([
        { say: 'hi', expect: { isError: true } },
        { name: 'Glob', answer: 'maybe', extra: 1 },
        {},
      ]),
      's.json',
    );
    expect('error' in parsed && parsed.error.split('\n')).toEqual([
      's.json is not a valid playground script:',
      '  at 0: `answer` and `expect` belong to a call: add a `name`',
      '  at 1.answer: an answer is y, a, a:file, a:dir, n, n:FEEDBACK, h:HUNKS or e',
      '  at 1: Unrecognized key: "extra"',
      '  at 2: a step needs a `name` (a call), `say` or `user`',
    ]);
    const mixed = parseScript(JSON.stringify([{ user: 'Fix it.', say: 'On it.' }]), 's.json');
    expect('error' in mixed && mixed.error.split('\n')).toEqual([
      's.json is not a valid playground script:',
      '  at 0: a `user` step is the user talking: its `say` and `name` go in a step of their own',
    ]);
    expect(parseScript('[]', 's.json')).toEqual({
      error: 's.json is not a valid playground script:\n  a script needs at least one step',
    });
  });
});

describe('parseScript: scripted edits', () => {
  it('takes an edit with answer e, and refuses it with any other answer', () => {
    const edit = [{ path: 'a.txt', old: 'proposed', new: 'mine' }];
    const ok = parseScript(JSON.stringify([{ name: 'WriteFile', answer: 'e', edit }]), 's.json');
    expect('steps' in ok && ok.steps[0]!.edit).toEqual(edit);
    const wrong = parseScript(
      JSON.stringify([
        { name: 'WriteFile', answer: 'y', edit },
        { name: 'WriteFile', answer: 'e', edit: [] },
      ]),
      's.json',
    );
    expect('error' in wrong && wrong.error.split('\n')).toEqual([
      's.json is not a valid playground script:',
      '  at 0: `edit` is what answer `e` writes: add `"answer": "e"`',
      '  at 1.edit: Too small: expected array to have >=1 items',
    ]);
  });
});

describe('the default script', () => {
  it('is valid, calls every tool and rewinds at a user message', async () => {
    const loaded = await loadScript(DEFAULT_SCRIPT_PATH);
    if ('error' in loaded) throw new Error(loaded.error);
    const names = new Set(loaded.steps.map((step) => step.name).filter(Boolean));
    expect([...names].sort()).toEqual([
      'ApplyPatch',
      'Glob',
      'Grep',
      'ListCheckpoints',
      'NotebookEdit',
      'ReadFile',
      'ReadMediaFile',
      'Rewind',
      'StrReplaceFile',
      'WriteFile',
    ]);
    expect(loaded.steps[0]?.user).toBeDefined();
    // Its rejection is scripted by the step itself, so it happens without a terminal too.
    expect(loaded.steps.some((step) => step.answer?.startsWith('n:'))).toBe(true);
  });

  it('reports a missing file', async () => {
    const missing = `${DEFAULT_SCRIPT_PATH}.missing`;
    await expect(fs.stat(missing)).rejects.toThrow();
    expect(await loadScript(missing)).toEqual({
      error: expect.stringContaining(`Cannot read the script ${missing}: ENOENT`),
    });
  });
});
