import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import type { FileStateStatus } from './file-state-tracker.js';

/**
 * The SPEC 1.6 error for a file that was never read or changed since it was read. `path` is the path as the model
 * gave it.
 */
export function readStateError(path: string, status: Exclude<FileStateStatus, 'ok'>): ToolReturnValue {
  if (status === 'not-read') {
    return toolError({
      message: `\`${path}\` has not been read yet. Read it first before writing to it.`,
      brief: 'File not read',
    });
  }
  return toolError({
    message: `\`${path}\` has been modified since it was last read, either by the user or by another process. Read it again before writing to it.`,
    brief: 'File modified',
  });
}
