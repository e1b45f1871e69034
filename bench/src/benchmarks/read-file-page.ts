import type { ToolReturnValue } from '@kimi-tools/core';

/** A page ReadFile returned, checked: it starts at the line asked for and reports the file's line count. */
export function checkPage(result: ToolReturnValue, line: number): { output: string; totalLines: number } {
  if (result.isError) throw new Error(`ReadFile failed: ${result.message}`);
  const output = typeof result.output === 'string' ? result.output : '';
  // Line numbers wider than 6 digits are not padded.
  if (!output.startsWith(`${line}\t`))
    throw new Error(`page starts with ${JSON.stringify(output.slice(0, 40))}`);
  const total = /Total lines in file: (\d+)\./.exec(result.message);
  if (total === null) throw new Error(`no total line count in ${JSON.stringify(result.message)}`);
  return { output, totalLines: Number(total[1]) };
}
