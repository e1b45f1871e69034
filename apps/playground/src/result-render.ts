import type { ContentPart, ToolReturnValue } from '@kimi-tools/core';
import type { Colors } from './output.js';

/** How much of a result's output is shown. */
export interface ResultDisplayLimits {
  /** Output lines shown before `… N more lines` (default 12). */
  maxLines?: number;
  /** Characters shown of each output line (default 160). */
  maxLineChars?: number;
}

function partText(part: ContentPart): string {
  if (part.type === 'text') return part.text;
  const url = part.url.length > 48 ? `${part.url.slice(0, 48)}… (${part.url.length} chars)` : part.url;
  return `[${part.type}: ${url}]`;
}

/** The text of a result's output; media parts become one-line placeholders. */
export function outputText(output: ToolReturnValue['output']): string {
  if (typeof output === 'string') return output;
  return output.map(partText).join('\n');
}

function clip(line: string, maxChars: number): string {
  const chars = Array.from(line);
  return chars.length <= maxChars ? line : `${chars.slice(0, maxChars).join('')}…`;
}

/** The transcript lines of a result: status, brief and message, then the output trimmed for display. */
export function renderResult(
  result: ToolReturnValue,
  colors: Colors,
  limits: ResultDisplayLimits = {},
): string[] {
  const c = colors;
  const maxLines = limits.maxLines ?? 12;
  const maxLineChars = limits.maxLineChars ?? 160;
  const status = result.isError ? c.red('✗ error') : c.green('✓ ok');
  const brief = result.brief ? ` ${c.bold(`[${result.brief}]`)}` : '';
  const message = result.message ? ` ${result.message}` : '';
  const lines = [`  ${status}${brief}${message}`];
  const text = outputText(result.output);
  if (text === '') return lines;
  const outputLines = text.replace(/\n$/, '').split('\n');
  for (const line of outputLines.slice(0, maxLines)) {
    lines.push(`    ${c.dim('│')} ${clip(line.replace(/\t/g, '  '), maxLineChars)}`);
  }
  const more = outputLines.length - maxLines;
  if (more > 0) lines.push(`    ${c.dim(`… ${more} more line${more === 1 ? '' : 's'} of output`)}`);
  return lines;
}
