import { renderDescription } from '@kimi-tools/core/toolkit';
import template from './str-replace-file.md';

/** StrReplaceFile's description. */
export const STR_REPLACE_FILE_DESCRIPTION = renderDescription(template, {}, 'str-replace-file.md');
