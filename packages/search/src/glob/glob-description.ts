import { renderDescription } from '@kimi-tools/core/toolkit';
import { GLOB_MAX_MATCHES } from '../limits.js';
import template from './glob.md';

/** The description of the Glob tool, rendered with its limits. */
export const GLOB_DESCRIPTION = renderDescription(template, { GLOB_MAX_MATCHES }, 'glob.md');
