import { describe, expect, it } from 'vitest';
import { IgnoreRuleCache } from './ignore-rule-cache.js';

describe('IgnoreRuleCache', () => {
  it('compiles the same texts once, and other texts, or the same texts above the search directory, anew', () => {
    const cache = new IgnoreRuleCache();
    const rules = cache.ruleSet(['*.log\n', '!keep.log\n'], false);
    expect(cache.ruleSet(['*.log\n', '!keep.log\n'], false)).toBe(rules);
    expect(cache.ruleSet(['*.log\n', '!keep.log\n'], true)).not.toBe(rules);
    // The same characters split otherwise are other files, hence other rules.
    expect(cache.ruleSet(['*.log\n!keep.log\n'], false)).not.toBe(rules);
    expect(cache.ruleSet(['*.log\n', '!keep.lo\n'], false)).not.toBe(rules);
    expect(cache.size).toBe(4);
    expect(rules.verdict('a/keep.log', 'keep.log', false)).toBe('unignored');
  });

  it('lets the least recently used sets go once their texts pass the bound, and never keeps a larger one', () => {
    const cache = new IgnoreRuleCache(64, 40);
    const first = cache.ruleSet(['a.txt\n'.padEnd(16, '#')], false);
    const second = cache.ruleSet(['b.txt\n'.padEnd(16, '#')], false);
    expect(cache.ruleSet(['a.txt\n'.padEnd(16, '#')], false)).toBe(first);
    cache.ruleSet(['c.txt\n'.padEnd(16, '#')], false);
    expect(cache.size).toBe(2);
    expect(cache.ruleSet(['a.txt\n'.padEnd(16, '#')], false)).toBe(first);
    expect(cache.ruleSet(['b.txt\n'.padEnd(16, '#')], false)).not.toBe(second);
    const huge = ['x\n'.repeat(30)];
    expect(cache.ruleSet(huge, false)).not.toBe(cache.ruleSet(huge, false));
    expect(cache.ruleSet(huge, false).verdict('x', 'x', false)).toBe('ignored');
  });

  it('keeps at most as many sets as it is told, the least recently used going first', () => {
    const cache = new IgnoreRuleCache(2);
    const [a, b] = [cache.ruleSet(['a\n'], false), cache.ruleSet(['b\n'], false)];
    expect(cache.ruleSet(['a\n'], false)).toBe(a);
    cache.ruleSet(['c\n'], false);
    expect(cache.size).toBe(2);
    expect(cache.ruleSet(['a\n'], false)).toBe(a);
    expect(cache.ruleSet(['b\n'], false)).not.toBe(b);
  });
});
