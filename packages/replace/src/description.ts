import { renderDescription } from '@kimi-tools/core/toolkit';
import { MAX_EDIT_FILE_BYTES } from './limits.js';
import template from './str-replace-file.md';

/** StrReplaceFile's description, rendered with its limits. */
export const STR_REPLACE_FILE_DESCRIPTION = renderDescription(
  template,
  { IN_MEMORY_MIB: Math.floor(MAX_EDIT_FILE_BYTES / 1024 ** 2) },
  'str-replace-file.md',
);
