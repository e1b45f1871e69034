import { lineIndent, objectMembers, skipWhitespace, type MemberRange } from './json-ranges.js';
import type { JsonValue } from './notebook-types.js';

/** How a JSON file was written, so that new text looks like the writer's. */
export interface JsonStyle {
  /** One level of indentation, e.g. `' '` (JupyterLab, nbformat), `'  '`, `'    '`; `''` for a one-line file. */
  indentUnit: string;
  /** Whether `\u` escapes use upper-case hex digits (`\u001B`, as some writers do). */
  upperCaseEscapes: boolean;
  /** Whether the writer escaped every non-ASCII character (`ensure_ascii`). */
  asciiOnly: boolean;
  /**
   * For text on one line (`indentUnit` `''`): what follows a `,` and a key's `:`, as the writer put them — nothing
   * (JSON.stringify) or a space (Python's `json.dumps` without an indent). Absent: nothing.
   */
  separators?: JsonSeparators;
}

/** The separators of one-line JSON text: `,` or `, ` between items, `:` or `: ` after a key. */
export interface JsonSeparators {
  comma: string;
  colon: string;
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

/** The separators between the first two of `members` (see {@link oneLineSeparators}). */
function separatorsOf(text: string, members: readonly MemberRange[]): JsonSeparators | undefined {
  const [first, second] = members;
  if (!first || !second) return undefined;
  const keyPart = text.slice(first.keyStart, first.value.start);
  const colon = keyPart.slice(keyPart.lastIndexOf('"') + 1);
  const comma = text.slice(first.value.end, second.keyStart);
  return /[\r\n]/.test(colon + comma) ? undefined : { comma, colon };
}

/**
 * The separators of the one-line object whose `{` is at `open`, from its first two members: `undefined` when it has
 * fewer, or when they hold a line break (the text is not one line after all).
 */
export function oneLineSeparators(text: string, open: number): JsonSeparators | undefined {
  return separatorsOf(text, objectMembers(text, open).members);
}

/**
 * The style of a JSON object text (its first member's indentation gives the unit; a one-line text's separators). The
 * escape fields are worked out on first use, once: {@link serializeJson} only asks for them when the new text holds a
 * character they apply to, so an edit of plain ASCII text never scans the whole file for them.
 */
export function detectJsonStyle(text: string): JsonStyle {
  const open = skipWhitespace(text, 0);
  const { members } = objectMembers(text, open);
  const first = members[0];
  const indent = first ? lineIndent(text, first.keyStart) : undefined;
  const topIndent = lineIndent(text, open) ?? '';
  const indentUnit = indent === undefined ? '' : indent.slice(topIndent.length);
  let escapes: EscapeStyle | undefined;
  const escapeStyle = () => (escapes ??= detectEscapeStyle(text));
  const separators = indentUnit === '' ? separatorsOf(text, members) : undefined;
  return {
    indentUnit,
    ...(separators ? { separators } : {}),
    get upperCaseEscapes() {
      return escapeStyle().upperCaseEscapes;
    },
    get asciiOnly() {
      return escapeStyle().asciiOnly;
    },
  };
}

/** `value` on one line with these separators, as Python's `json.dumps` writes it without an indent. */
function oneLineJson(value: JsonValue, separators: JsonSeparators): string {
  const { comma, colon } = separators;
  if (Array.isArray(value)) return `[${value.map((item) => oneLineJson(item, separators)).join(comma)}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}${colon}${oneLineJson(item, separators)}`,
    );
    return `{${members.join(comma)}}`;
  }
  return JSON.stringify(value);
}

/**
 * `value` as JSON text in `style`, its lines after the first indented by `indent` (where the value sits). Key order is
 * the object's own; separators are `, ` and `: ` as both JSON.stringify and Python's json write them with an indent,
 * and on one line the file's own (`,` and `:` by default).
 */
export function serializeJson(value: JsonValue, style: JsonStyle, indent: string): string {
  const { separators } = style;
  let text =
    style.indentUnit === ''
      ? separators
        ? oneLineJson(value, separators)
        : JSON.stringify(value)
      : JSON.stringify(value, null, style.indentUnit);
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
