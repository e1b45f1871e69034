import { renderDescription } from '@kimi-tools/core/toolkit';
import template from './apply-patch.md';

/** ApplyPatch's description, as the model reads it. */
export const APPLY_PATCH_DESCRIPTION = renderDescription(template, {}, 'apply-patch.md');
