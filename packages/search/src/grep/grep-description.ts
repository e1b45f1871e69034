import { renderDescription } from '@kimi-tools/core/toolkit';
import { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS } from '../limits.js';
import template from './grep.md';

/** The description of the Grep tool, rendered with its limits. */
export const GREP_DESCRIPTION = renderDescription(
  template,
  { GREP_DEFAULT_HEAD_LIMIT, GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_CHARS },
  'grep.md',
);
