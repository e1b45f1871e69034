import { Briefs, modifiedMessage, notReadMessage, type ReadStateBrief } from '../errors.js';
import { toolError, type ToolReturnValue } from '../result/tool-result.js';
import type { FileStateStatus } from './file-state-tracker.js';

/**
 * The docs/read-state.md error for a file that was never read or changed since it was read. `path` is the path as the model
 * gave it.
 */
export function readStateError(
  path: string,
  status: Exclude<FileStateStatus, 'ok'>,
): ToolReturnValue<ReadStateBrief> {
  if (status === 'not-read') return toolError({ message: notReadMessage(path), brief: Briefs.fileNotRead });
  return toolError({ message: modifiedMessage(path), brief: Briefs.fileModified });
}
