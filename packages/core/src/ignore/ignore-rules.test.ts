import { describe, expect, it } from 'vitest';
import {
  IGNORE_SET_MAX_REMEMBERED,
  IgnoreRuleSet,
  isIgnoredEntry,
  levelForDirectory,
} from './ignore-rules.js';

describe('IgnoreRuleSet', () => {
  it('matches basename rules at any depth, later rules winning, case-sensitively', () => {
    const rules = IgnoreRuleSet.create(['# build output\ndist/\n*.log\n', '!keep.log\n']);
    expect(rules.verdict('a/b/x.log', 'x.log', false)).toBe('ignored');
    expect(rules.verdict('c/x.log', 'x.log', false)).toBe('ignored');
    expect(rules.verdict('keep.log', 'keep.log', false)).toBe('unignored');
    expect(rules.verdict('X.LOG', 'X.LOG', false)).toBe('none');
    expect(rules.verdict('deep/dist', 'dist', true)).toBe('ignored');
    expect(rules.verdict('deep/dist', 'dist', false)).toBe('none');
  });

  it('anchors rules with a slash to the directory of the ignore file', () => {
    const rules = IgnoreRuleSet.create(['/top.txt\nsrc/gen/\n']);
    expect(rules.verdict('top.txt', 'top.txt', false)).toBe('ignored');
    expect(rules.verdict('a/top.txt', 'top.txt', false)).toBe('none');
    expect(rules.verdict('src/gen', 'gen', true)).toBe('ignored');
    expect(rules.verdict('lib/src/gen', 'gen', true)).toBe('none');
  });

  it('lets a deeper level override a shallower one', () => {
    const levels = [
      levelForDirectory(IgnoreRuleSet.create(['*.log\n']), ''),
      levelForDirectory(IgnoreRuleSet.create(['!keep.log\n']), 'src'),
    ];
    expect(isIgnoredEntry('keep.log', 'src/keep.log', false, levels)).toBe(false);
    expect(isIgnoredEntry('keep.log', 'keep.log', false, levels.slice(0, 1))).toBe(true);
    expect(isIgnoredEntry('node_modules', 'a/node_modules', true, [])).toBe(true);
    expect(isIgnoredEntry('.git', '.git', true, [])).toBe(true);
  });

  it('forgets its answers past a bound, and answers alike after', () => {
    const rules = IgnoreRuleSet.create(['*.log\n!keep*.log\n/top/*.tmp\n']);
    const names = 3 * IGNORE_SET_MAX_REMEMBERED;
    for (let index = 0; index < names; index++) {
      expect(rules.verdict(`top/f${index}.log`, `f${index}.log`, false)).toBe('ignored');
      expect(rules.verdict(`top/keep${index}.log`, `keep${index}.log`, false)).toBe('unignored');
      expect(rules.verdict(`top/t${index}.tmp`, `t${index}.tmp`, false)).toBe('ignored');
      expect(rules.verdict(`a/top/t${index}.tmp`, `t${index}.tmp`, false)).toBe('none');
      expect(rules.rememberedAnswers).toBeLessThanOrEqual(IGNORE_SET_MAX_REMEMBERED);
    }
  });
});
