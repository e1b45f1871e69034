import { renderDescription } from '@kimi-tools/core/toolkit';
import { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS } from '../limits.js';
import template from './grep.md';

/** The description of a Grep tool whose output is cut at `maxOutputChars` characters. */
export function grepDescription(maxOutputChars: number): string {
  return renderDescription(
    template,
    { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS: maxOutputChars },
    'grep.md',
  );
}

/** The description of the Grep tool, rendered with its default limits. */
export const GREP_DESCRIPTION = grepDescription(GREP_MAX_OUTPUT_CHARS);
