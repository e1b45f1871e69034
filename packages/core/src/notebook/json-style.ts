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

type EscapeStyle = Pick<JsonStyle, 'upperCaseEscapes' | 'asciiOnly'>;

// Each test scans the whole text: tens of milliseconds for a notebook of many megabytes.
function detectEscapeStyle(text: string): EscapeStyle {
  const lowerHex = /\\u(?=[0-9a-f]{0,3}[a-f])[0-9a-f]{4}/.test(text);
  const upperHex = /\\u(?=[0-9A-F]{0,3}[A-F])[0-9A-F]{4}/.test(text);
  const nonAsciiEscape =
    /\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/;
  return {
    upperCaseEscapes: upperHex && !lowerHex,
    asciiOnly: !/[\u0080-\uffff]/.test(text) && nonAsciiEscape.test(text),
  };
}

/**
 * The style of a JSON object text (its first member's indentation gives the unit). The escape fields are worked out
 * on first use, once: {@link serializeJson} only asks for them when the new text holds a character they apply to,
 * so an edit of plain ASCII text never scans the whole file for them.
 */
export function detectJsonStyle(text: string): JsonStyle {
  const open = skipWhitespace(text, 0);
  const first = objectMembers(text, open).members[0];
  const indent = first ? lineIndent(text, first.keyStart) : undefined;
  const topIndent = lineIndent(text, open) ?? '';
  const indentUnit = indent === undefined ? '' : indent.slice(topIndent.length);
  let escapes: EscapeStyle | undefined;
  const escapeStyle = () => (escapes ??= detectEscapeStyle(text));
  return {
    indentUnit,
    get upperCaseEscapes() {
      return escapeStyle().upperCaseEscapes;
    },
    get asciiOnly() {
      return escapeStyle().asciiOnly;
    },
  };
}

/**
 * `value` as JSON text in `style`, its lines after the first indented by `indent` (where the value sits). Key order is
 * the object's own; separators are `, ` and `: ` as both JSON.stringify and Python's json write them with an indent.
 */
export function serializeJson(value: JsonValue, style: JsonStyle, indent: string): string {
  let text = JSON.stringify(value, null, style.indentUnit === '' ? undefined : style.indentUnit);
  if (style.indentUnit !== '' && indent !== '') text = text.replaceAll('\n', `\n${indent}`);
  // Each escape field is read only when the text holds what it applies to (see detectJsonStyle).
  if (/[\u0080-\uffff]/.test(text) && style.asciiOnly) {
    text = text.replace(
      /[\u0080-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (text.includes('\\u') && style.upperCaseEscapes) {
    text = text.replace(
      /(?<!\\)((?:\\\\)*)\\u([0-9a-f]{4})/g,
      (_match, backslashes: string, hex: string) => `${backslashes}\\u${hex.toUpperCase()}`,
    );
  }
  return text;
}
