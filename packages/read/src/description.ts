import { renderDescription } from '@kimi-tools/core/toolkit';
import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES, MAX_TAIL_LINES } from './limits.js';
import template from './read-file.md';

/** The ReadFile description, its limits filled in. */
export function describeReadFile(): string {
  return renderDescription(
    template,
    { MAX_LINES, MAX_LINE_LENGTH, MAX_BYTES, MAX_TAIL_LINES },
    'read-file.md',
  );
}
