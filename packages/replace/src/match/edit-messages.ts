import { MAX_LISTED_MATCHES } from './find-edit.js';
import type { EditFailure, MatchLevel } from './types.js';

/** The listed line numbers, followed by `...` when there were more matches than the error lists. */
function listedLines(lines: readonly number[], count: number): string {
  return count > MAX_LISTED_MATCHES ? `${lines.join(', ')}, ...` : lines.join(', ');
}

/** The error message and brief of a failed edit, worded as SPEC §4 says (`index` is 1-based). */
export function editFailureText(index: number, failure: EditFailure): { message: string; brief: string } {
  switch (failure.kind) {
    case 'empty-old':
      return {
        message: `Edit ${index}: the old string is empty. Provide the exact text to replace.`,
        brief: 'Invalid edit',
      };
    case 'identical':
      return {
        message: `Edit ${index}: the old and new strings are identical; nothing to change.`,
        brief: 'Invalid edit',
      };
    case 'not-found': {
      const closest =
        failure.closest === undefined
          ? ''
          : ` The closest text is at line ${failure.closest.line}:\n\`\`\`\n${failure.closest.excerpt}\n\`\`\``;
      return {
        message: `Edit ${index}: the old string was not found in the file. No changes were made.${closest}`,
        brief: 'No match',
      };
    }
    case 'ambiguous':
      return {
        message: `Edit ${index}: found ${failure.count} matches of the old string (at lines ${listedLines(failure.lines, failure.count)}). Provide more surrounding context to make it unique, or set replace_all to true.`,
        brief: 'Ambiguous match',
      };
  }
}

const LEVEL_WORDS: Record<Exclude<MatchLevel, 'exact'>, string> = {
  'line-endings': 'line endings',
  quotes: 'quotes',
  whitespace: 'whitespace',
};

/** SPEC §4 success message, with one sentence per edit that needed a looser level. */
export function editSuccessText(levels: readonly MatchLevel[], totalReplacements: number): string {
  let message = `File successfully edited. Applied ${levels.length} edit(s) with ${totalReplacements} total replacement(s).`;
  levels.forEach((level, position) => {
    if (level !== 'exact')
      message += ` Edit ${position + 1} matched after normalising ${LEVEL_WORDS[level]}.`;
  });
  return message;
}
