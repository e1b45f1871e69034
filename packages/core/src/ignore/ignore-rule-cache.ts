import { IgnoreRuleSet } from './ignore-rules.js';

/** Rule sets one cache keeps, at most: each remembers up to IGNORE_SET_MAX_REMEMBERED answers besides its rules. */
export const IGNORE_RULE_CACHE_SETS = 64;

/** Characters of ignore-file text one cache keeps compiled, at most (the texts are held twice: key and rules). */
export const IGNORE_RULE_CACHE_CHARS = 1024 * 1024;

/**
 * Compiled ignore rules by the text of their files, kept by a tool instance across its calls: the next call on the
 * same tree neither compiles the rules again nor tests again the names whose verdicts a set remembers (Glob on the
 * corpus of `pnpm bench`: about 4 % of a call). The key is the content alone, never a path or a time, so an edited
 * ignore file is a new key even within one mtime tick. The least recently used sets go first once there are more
 * than `maxSets` or their texts pass `maxChars`; a text longer than that is compiled for the call and not kept.
 * Hand-written: a cache package would be loaded by every tool's import for these few lines.
 */
export class IgnoreRuleCache {
  private readonly sets = new Map<string, IgnoreRuleSet>();
  private chars = 0;

  constructor(
    private readonly maxSets = IGNORE_RULE_CACHE_SETS,
    private readonly maxChars = IGNORE_RULE_CACHE_CHARS,
  ) {}

  /** The rule set of `texts` (see {@link IgnoreRuleSet.create}), compiled once while it stays in the cache. */
  ruleSet(texts: readonly string[], parentsUnknown: boolean): IgnoreRuleSet {
    // Each text with its length: no two lists of texts share a key, whatever characters the files hold.
    const key = `${parentsUnknown ? '^' : '.'}${texts.map((text) => `${text.length}:${text}`).join('')}`;
    const cached = this.sets.get(key);
    if (cached !== undefined) {
      this.sets.delete(key);
      this.sets.set(key, cached);
      return cached;
    }
    const rules = IgnoreRuleSet.create(texts, parentsUnknown);
    if (key.length > this.maxChars) return rules;
    this.sets.set(key, rules);
    this.chars += key.length;
    for (const [oldest] of this.sets) {
      if (this.chars <= this.maxChars && this.sets.size <= this.maxSets) break;
      this.sets.delete(oldest);
      this.chars -= oldest.length;
    }
    return rules;
  }

  /** How many rule sets are kept. */
  get size(): number {
    return this.sets.size;
  }
}
