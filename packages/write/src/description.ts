import { renderDescription } from '@kimi-tools/core/toolkit';
import template from './write-file.md';

const READ_FIRST =
  'Before you overwrite an existing file, read it with ReadFile in this session; if it changed since you read it, ' +
  'read it again. Creating a new file or appending needs no prior read.';

/** The WriteFile description the model reads; the read-first tip appears only when the runtime enforces it. */
export function describeWriteFile(readBeforeWrite: boolean): string {
  return renderDescription(template, { READ_FIRST: readBeforeWrite ? READ_FIRST : '' }, 'write-file.md');
}
