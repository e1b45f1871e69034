// Used by our whole-process scripts: one tool call as a user makes it, printed, with the split of the process's time.
import type { ToolReturnValue } from '@kimi-tools/core';
import { reportDetails, sinceStartMs } from './child-report.js';

/** Anything with the tools' `call`. */
interface CallableTool {
  call(args: unknown): Promise<ToolReturnValue>;
}

/**
 * Builds the tool, makes one call, fails on an error result, prints the output and the message (as a host would
 * show them) and reports the split: `startMs` (Node's start-up until the script ran, measured by the caller at its
 * top), `importMs` (imports and building the tool), `callMs`, plus what `details` adds. Returns the result.
 */
export async function callOnce(
  startMs: number,
  build: () => Promise<CallableTool>,
  args: unknown,
  details: (result: ToolReturnValue) => Record<string, number> = () => ({}),
): Promise<ToolReturnValue> {
  const tool = await build();
  const builtMs = sinceStartMs();
  const result = await tool.call(args);
  const calledMs = sinceStartMs();
  if (result.isError) throw new Error(`the call failed: ${result.message}`);
  const output = typeof result.output === 'string' ? result.output : '';
  process.stdout.write(`${output}\n${result.message}\n`);
  reportDetails({ startMs, importMs: builtMs - startMs, callMs: calledMs - builtMs, ...details(result) });
  return result;
}
