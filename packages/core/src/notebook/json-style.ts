import { lineIndent, objectMembers, skipWhitespace } from './json-ranges.js';
import type { JsonValue } from './notebook-types.js';

/** How a JSON file was written, so that new text looks like the writer's. */
export interface JsonStyle {
  /** One level of indentation, e.g. `' '` (JupyterLab, nbformat), `'  '`, `'    '`; `''` for a one-line file. */
  indentUnit: string;
  /** Whether `\u` escapes use upper-case hex digits (`\u001B`, as some writers do). */
  upperCaseEscapes: boolean;
  /** Whether the writer escaped every non-ASCII character (`ensure_ascii`). */
  asciiOnly: boolean;
}

/** The style of a JSON object text (its first member's indentation gives the unit). */
export function detectJsonStyle(text: string): JsonStyle {
  const open = skipWhitespace(text, 0);
  const first = objectMembers(text, open).members[0];
  const indent = first ? lineIndent(text, first.keyStart) : undefined;
  const topIndent = lineIndent(text, open) ?? '';
  const indentUnit = indent === undefined ? '' : indent.slice(topIndent.length);
  const lowerHex = /\\u(?=[0-9a-f]{0,3}[a-f])[0-9a-f]{4}/.test(text);
  const upperHex = /\\u(?=[0-9A-F]{0,3}[A-F])[0-9A-F]{4}/.test(text);
  const nonAsciiEscape =
    /\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/;
  return {
    indentUnit,
    upperCaseEscapes: upperHex && !lowerHex,
    asciiOnly: !/[\u0080-\uffff]/.test(text) && nonAsciiEscape.test(text),
  };
}

/**
 * `value` as JSON text in `style`, its lines after the first indented by `indent` (where the value sits). Key order is
 * the object's own; separators are `, ` and `: ` as both JSON.stringify and Python's json write them with an indent.
 */
export function serializeJson(value: JsonValue, style: JsonStyle, indent: string): string {
  let text = JSON.stringify(value, null, style.indentUnit === '' ? undefined : style.indentUnit);
  if (style.indentUnit !== '' && indent !== '') text = text.replaceAll('\n', `\n${indent}`);
  if (style.asciiOnly) {
    text = text.replace(
      /[\u0080-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (style.upperCaseEscapes) {
    text = text.replace(
      /(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})/g,
      (_match, backslashes: string, hex: string) => `${backslashes}\\u${hex.toUpperCase()}`,
    );
  }
  return text;
}
