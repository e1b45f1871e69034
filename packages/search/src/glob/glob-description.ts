import { renderDescription } from '@kimi-tools/core/toolkit';
import { GLOB_MAX_MATCHES } from '../limits.js';
import template from './glob.md';

/** The description of a Glob tool that returns at most `maxMatches` paths. */
export function globDescription(maxMatches: number): string {
  return renderDescription(template, { GLOB_MAX_MATCHES: maxMatches }, 'glob.md');
}

/** The description of the Glob tool, rendered with its default limits. */
export const GLOB_DESCRIPTION = globDescription(GLOB_MAX_MATCHES);
