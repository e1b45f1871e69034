import { describe, expect, it } from 'vitest';
import { parseRule } from './parse-rule.js';

function rule(input: unknown) {
  const parsed = parseRule(input);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

function problem(input: unknown): string {
  const parsed = parseRule(input);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(input)}`);
  return parsed.message;
}

describe('the string form', () => {
  it('reads an effect, a tool or group, and globs separated by commas', () => {
    expect(rule('allow Edit(src/**)')).toEqual({
      effect: 'allow',
      tools: ['Edit'],
      globs: ['src/**'],
      text: 'allow Edit(src/**)',
    });
    expect(rule('  deny WriteFile( **/*.lock ,  *.min.js )  ')).toEqual({
      effect: 'deny',
      tools: ['WriteFile'],
      globs: ['**/*.lock', '*.min.js'],
      text: 'deny WriteFile( **/*.lock ,  *.min.js )',
    });
    expect(rule('ask WriteFile (.github/**)')).toMatchObject({ effect: 'ask', globs: ['.github/**'] });
  });

  it('names several tools separated by commas, and every path without parentheses', () => {
    expect(rule('deny WriteFile, ApplyPatch')).toEqual({
      effect: 'deny',
      tools: ['WriteFile', 'ApplyPatch'],
      globs: undefined,
      text: 'deny WriteFile, ApplyPatch',
    });
  });

  it('keeps parentheses inside a glob', () => {
    expect(rule('allow Edit(app/(marketing)/**)').globs).toEqual(['app/(marketing)/**']);
  });

  it('refuses what is not the form, quoting the rule', () => {
    const form =
      'write it as allow, ask or deny, then a tool or group, then globs in parentheses, e.g. `allow Edit(src/**)`.';
    for (const text of [
      'allow',
      'Edit(src/**)',
      'allow (src/**)',
      'allow Edit(src/**',
      'allow Edit(a) b',
      'allow Edit, (a)',
    ]) {
      expect(problem(text)).toBe(`invalid permission rule \`${text}\`: ${form}`);
    }
  });

  it('refuses an unknown effect, a bad tool name, empty parentheses and empty globs', () => {
    expect(problem('permit Edit(src/**)')).toBe(
      'invalid permission rule `permit Edit(src/**)`: `permit` is not an effect: use allow, ask or deny.',
    );
    expect(problem('Allow Edit')).toBe(
      'invalid permission rule `Allow Edit`: `Allow` is not an effect: use allow, ask or deny.',
    );
    expect(problem('allow Write File(a)')).toBe(
      "invalid permission rule `allow Write File(a)`: `Write File` is not a tool name: use a tool's name (letters, digits, `_` and `-`) or a group, Read or Edit.",
    );
    expect(problem('deny Edit()')).toBe(
      'invalid permission rule `deny Edit()`: the parentheses hold no glob: leave them out to match every path.',
    );
    expect(problem('deny Edit(a,,b)')).toBe('invalid permission rule `deny Edit(a,,b)`: a glob is empty.');
  });

  it('refuses globs it would read otherwise than the user means', () => {
    expect(problem('allow Edit(!src/**)')).toBe(
      'invalid permission rule `allow Edit(!src/**)`: the glob `!src/**` starts with !: a rule cannot negate a glob; write a rule with another effect instead.',
    );
    expect(problem('deny Edit(~/.ssh/**)')).toBe(
      "invalid permission rule `deny Edit(~/.ssh/**)`: the glob `~/.ssh/**` starts with ~: write the home directory's absolute path instead.",
    );
    for (const glob of ['../other/**', './src/**', 'src/../lib', '/work/./x', 'a/..']) {
      expect(problem(`deny Edit(${glob})`)).toBe(
        `invalid permission rule \`deny Edit(${glob})\`: the glob \`${glob}\` has a . or .. segment: write it relative to the workspace without them, or as an absolute glob.`,
      );
    }
    expect(problem('deny Edit(src//a)')).toBe(
      'invalid permission rule `deny Edit(src//a)`: the glob `src//a` has an empty segment (//).',
    );
  });

  it('refuses a control character, and shows it escaped', () => {
    expect(problem('allow\tEdit(src/**)')).toBe(
      'invalid permission rule `"allow\\tEdit(src/**)"`: it holds a control character.',
    );
    expect(problem('allow Edit(src/\u001b[2K)')).toBe(
      'invalid permission rule `"allow Edit(src/\\u001b[2K)"`: it holds a control character.',
    );
  });
});

describe('the object form', () => {
  it('takes effect, tools and optional paths, quoted back in the string form', () => {
    expect(rule({ effect: 'allow', tools: ['Edit'], paths: ['src/**'] })).toEqual({
      effect: 'allow',
      tools: ['Edit'],
      globs: ['src/**'],
      text: 'allow Edit(src/**)',
    });
    expect(rule({ effect: 'deny', tools: ['WriteFile', 'ApplyPatch'] })).toEqual({
      effect: 'deny',
      tools: ['WriteFile', 'ApplyPatch'],
      globs: undefined,
      text: 'deny WriteFile, ApplyPatch',
    });
    expect(rule({ effect: 'ask', tools: ['Edit'], paths: ['.github/**', 'Makefile'] }).text).toBe(
      'ask Edit(.github/**, Makefile)',
    );
  });

  it('refuses a wrong field, quoting the object as JSON', () => {
    expect(problem({ effect: 'permit', tools: ['Edit'] })).toBe(
      'invalid permission rule `{"effect":"permit","tools":["Edit"]}`: `effect` must be allow, ask or deny.',
    );
    for (const tools of [undefined, [], 'Edit', [1]]) {
      expect(problem({ effect: 'allow', tools })).toBe(
        `invalid permission rule \`${JSON.stringify({ effect: 'allow', tools })}\`: \`tools\` must be a non-empty list of tool names.`,
      );
    }
    for (const paths of [[], 'src/**', [null]]) {
      expect(problem({ effect: 'allow', tools: ['Edit'], paths })).toBe(
        `invalid permission rule \`${JSON.stringify({ effect: 'allow', tools: ['Edit'], paths })}\`: \`paths\` must be a non-empty list of globs, or left out to match every path.`,
      );
    }
    expect(problem({ effect: 'allow', tools: ['Edit'], path: ['src/**'] })).toBe(
      'invalid permission rule `{"effect":"allow","tools":["Edit"],"path":["src/**"]}`: `path` is not a field of a rule: use effect, tools and paths.',
    );
    expect(problem({ effect: 'allow', tools: ['Edit(src/**)'] })).toBe(
      'invalid permission rule `{"effect":"allow","tools":["Edit(src/**)"]}`: `Edit(src/**)` is not a tool name: use a tool\'s name (letters, digits, `_` and `-`) or a group, Read or Edit.',
    );
    expect(problem({ effect: 'deny', tools: ['Edit'], paths: [''] })).toBe(
      'invalid permission rule `{"effect":"deny","tools":["Edit"],"paths":[""]}`: a glob is empty.',
    );
    expect(problem({ effect: 'deny', tools: ['Edit'], paths: ['../x'] })).toBe(
      'invalid permission rule `{"effect":"deny","tools":["Edit"],"paths":["../x"]}`: the glob `../x` has a . or .. segment: write it relative to the workspace without them, or as an absolute glob.',
    );
    expect(problem({ effect: 'deny', tools: ['Edit'], paths: ['a\nb'] })).toBe(
      'invalid permission rule `{"effect":"deny","tools":["Edit"],"paths":["a\\nb"]}`: it holds a control character.',
    );
  });

  it('refuses what is neither a string nor an object', () => {
    const shape = 'a rule is a string such as `allow Edit(src/**)` or an object `{ effect, tools, paths? }`.';
    expect(problem(null)).toBe(`invalid permission rule \`null\`: ${shape}`);
    expect(problem(42)).toBe(`invalid permission rule \`42\`: ${shape}`);
    expect(problem(['allow Edit'])).toBe(`invalid permission rule \`["allow Edit"]\`: ${shape}`);
  });
});
