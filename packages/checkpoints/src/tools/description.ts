import { renderDescription } from '@kimi-tools/core/toolkit';
import listTemplate from './list-checkpoints.md';
import rewindTemplate from './rewind.md';

/** ListCheckpoints' description, as the model reads it. */
export const LIST_CHECKPOINTS_DESCRIPTION = renderDescription(listTemplate, {}, 'list-checkpoints.md');

/** Rewind's description, as the model reads it. */
export const REWIND_DESCRIPTION = renderDescription(rewindTemplate, {}, 'rewind.md');
