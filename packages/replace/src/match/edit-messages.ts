import type { MatchLevel } from './types.js';

const LEVEL_WORDS: Record<Exclude<MatchLevel, 'exact'>, string> = {
  'line-endings': 'line endings',
  quotes: 'quotes',
  whitespace: 'whitespace',
  indentation: 'tabs and spaces in indentation',
  'line-numbers': 'line-number prefixes',
};

/** docs/str-replace-file.md success message, with one sentence per edit that needed a looser level. */
export function editSuccessText(levels: readonly MatchLevel[], totalReplacements: number): string {
  let message = `File successfully edited. Applied ${levels.length} edit(s) with ${totalReplacements} total replacement(s).`;
  levels.forEach((level, position) => {
    if (level !== 'exact')
      message += ` Edit ${position + 1} matched after normalising ${LEVEL_WORDS[level]}.`;
  });
  return message;
}
